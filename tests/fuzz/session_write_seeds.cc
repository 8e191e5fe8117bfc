// Writes the session fuzzer's seed corpus into DIR: session_fuzz_seeds(), real session files
// saved from the decoder PTE (session_run_fuzz.sh passes //tests/embedding:llm_llama).
#include <cstdio>
#include <string>

#include "runtime/core/diagnostics.h"
#include "tests/fuzz/session_fuzz.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: session_write_seeds PTE DIR\n");
    return 2;
  }
  if (ember::fuzz::session_fuzz_init(argv[1]) != ember::runtime::Error::Ok) {
    std::fprintf(stderr, "session_write_seeds: %s\n", ember::runtime::last_error_message());
    return 1;
  }
  int n = 0;
  for (const auto& [name, bytes] : ember::fuzz::session_fuzz_seeds()) {
    const std::string path = std::string(argv[2]) + "/" + name;
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr || std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size() ||
        std::fclose(f) != 0) {
      std::fprintf(stderr, "session_write_seeds: cannot write %s\n", path.c_str());
      return 1;
    }
    ++n;
  }
  std::printf("%d seeds\n", n);
  return n == 8 ? 0 : 1;
}
