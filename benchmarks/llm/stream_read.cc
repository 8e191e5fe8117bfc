// stream_read: the single-thread streaming read bandwidth the LLM benchmark divides weight bytes
// by (a decode step reads every weight once, so bandwidth / weight bytes bounds tokens/s).
// Sums a 1 GiB buffer of uint64 (4 independent accumulators) 5 times after one warm-up pass
// and prints the best and the median in GB/s as JSON: {"best_gbps":..., "median_gbps":...}.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

int main() {
  constexpr size_t kBytes = size_t(1) << 30;
  std::vector<uint64_t> buf(kBytes / 8);
  for (size_t i = 0; i < buf.size(); ++i) buf[i] = i * 2654435761u;
  std::vector<double> gbps;
  uint64_t sink = 0;
  for (int pass = 0; pass < 6; ++pass) {
    const auto t0 = std::chrono::steady_clock::now();
    uint64_t a = 0, b = 0, c = 0, d = 0;
    for (size_t i = 0; i < buf.size(); i += 4) {
      a += buf[i];
      b += buf[i + 1];
      c += buf[i + 2];
      d += buf[i + 3];
    }
    sink += a ^ b ^ c ^ d;
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (pass > 0) gbps.push_back(double(kBytes) / s / 1e9);
  }
  std::sort(gbps.begin(), gbps.end());
  std::printf("{\"best_gbps\": %.2f, \"median_gbps\": %.2f, \"sink\": %llu}\n", gbps.back(),
              gbps[gbps.size() / 2], static_cast<unsigned long long>(sink & 1));
  return 0;
}
