// Writes the pt2 fuzz targets' seed corpus into DIR: every committed .pt2 fixture of the
// checkout at ROOT (default: the current directory) up to MAX_BYTES long (default 2 MiB),
// raw and as entries, and issue #33's crafted bound cases (pt2_seeds.h).
//   pt2_write_seeds DIR [ROOT [MAX_BYTES]]
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "tests/fuzz/pt2_seeds.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s DIR [ROOT [MAX_BYTES]]\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  const std::string root = argc > 2 ? argv[2] : ".";
  const size_t max_bytes = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : size_t(2) << 20;
  size_t n = 0;
  std::vector<ember::fuzz::Seed> seeds = ember::fuzz::pt2_seeds(root, max_bytes);
  for (ember::fuzz::Seed& s : ember::fuzz::pt2_bound_seeds(root)) seeds.push_back(std::move(s));
  for (const ember::fuzz::Seed& s : seeds) {
    FILE* f = std::fopen((dir + "/" + s.name).c_str(), "wb");
    if (f == nullptr || std::fwrite(s.bytes.data(), 1, s.bytes.size(), f) != s.bytes.size() ||
        std::fclose(f) != 0) {
      std::fprintf(stderr, "pt2_write_seeds: cannot write %s/%s\n", dir.c_str(), s.name.c_str());
      return 1;
    }
    ++n;
  }
  std::printf("%zu seeds\n", n);
  return n == 0 ? 1 : 0;
}
