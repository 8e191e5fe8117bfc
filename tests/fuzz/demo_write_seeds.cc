// Writes demo_seed_blobs() into a directory as the demo bytecode fuzzer's seed corpus.
#include <cstdio>
#include <string>

#include "tests/fuzz/demo_seeds.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: demo_write_seeds DIR\n");
    return 2;
  }
  for (const auto& [name, blob] : ember::testing::demo_seed_blobs()) {
    FILE* f = std::fopen((std::string(argv[1]) + "/" + name + ".edmo").c_str(), "wb");
    if (f == nullptr) return 1;
    std::fwrite(blob.data(), 1, blob.size(), f);
    std::fclose(f);
  }
  return 0;
}
