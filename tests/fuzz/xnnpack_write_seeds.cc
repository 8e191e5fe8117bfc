// Writes the XnnpackBackend fuzzer's seed corpus into DIR: xnnpack_seed_blobs(), plus the
// XnnpackBackend payloads (<= 1 MiB) cut out of every .pte in PTE_DIR when given.
#include <dirent.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include "tests/fuzz/xnnpack_seeds.h"

namespace {

bool write(const std::string& path, const std::vector<uint8_t>& blob) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return false;
  std::fwrite(blob.data(), 1, blob.size(), f);
  return std::fclose(f) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 && argc != 3) {
    std::fprintf(stderr, "usage: xnnpack_write_seeds DIR [PTE_DIR]\n");
    return 2;
  }
  const std::string out = argv[1];
  int n = 0;
  for (const auto& [name, blob] : ember::testing::xnnpack_seed_blobs()) {
    if (!write(out + "/" + name + ".xnn", blob)) return 1;
    ++n;
  }
  DIR* d = argc == 3 ? opendir(argv[2]) : nullptr;
  while (d != nullptr) {
    dirent* e = readdir(d);
    if (e == nullptr) break;
    const std::string name = e->d_name;
    if (name.size() < 4 || name.substr(name.size() - 4) != ".pte") continue;
    std::ifstream in(std::string(argv[2]) + "/" + name, std::ios::binary);
    std::vector<uint8_t> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    int k = 0;
    for (const auto& blob : ember::testing::extract_xnnpack_blobs(file, 1 << 20)) {
      if (!write(out + "/" + name + "." + std::to_string(k++) + ".xnn", blob)) return 1;
      ++n;
    }
  }
  if (d != nullptr) closedir(d);
  std::printf("%d seeds\n", n);
  return 0;
}
