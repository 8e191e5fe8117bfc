// pt2_seeds / mutate_entries (see pt2_seeds.h).
#include "tests/fuzz/pt2_seeds.h"

#include <cstring>

#include "aot/frontend/pt2_crafted.h"
#include "aot/frontend/zip_test_util.h"
#include "tests/fuzz/pt2_entries.h"
#include "tests/support/shared_fixtures.h"

namespace ember::fuzz {

std::vector<Seed> pt2_seeds(const std::string& root, size_t max_bytes) {
  std::vector<Seed> seeds;
  for (const char* folder : {"tests/fixtures/pt2/", "tests/fixtures/pt2_quant/"}) {
    const std::string dir = root + "/" + folder;
    for (const std::string& name : testing::list_files(dir, ".pt2")) {
      std::vector<uint8_t> bytes;
      if (!testing::read_file(dir + name, &bytes) || bytes.size() > max_bytes) continue;
      seeds.push_back({name + ".entries", encode_entries(aot::testing::unzip_all(bytes))});
      seeds.push_back({name, std::move(bytes)});
    }
  }
  return seeds;
}

std::vector<Seed> pt2_bound_seeds(const std::string& root) {
  const std::string mlp = root + "/tests/fixtures/pt2/mlp.core_aten.torch2_14";
  std::vector<uint8_t> archive;
  if (!testing::read_file(mlp + ".pt2", &archive)) return {};
  using namespace aot::testing;  // the crafted-file helpers (pt2_crafted.h)
  return {
      {"bound_deep_stack_trace.pt2", with_deep_stack_trace(archive, 200000)},
      {"bound_deep_stack_trace_1m.pt2", with_deep_stack_trace(archive, 1000000, /*deflate=*/true)},
      {"bound_duplicate_model_json.pt2",
       with_duplicate_entry(archive, "mlp.core_aten.torch2_14/models/model.json", "{}")},
      {"bound_unused_zero_records.pt2", with_unused_records(archive, 100, int64_t{64} << 20, true)},
      {"bound_control_bytes_stack_trace.pt2", with_control_bytes_stack_trace(archive)},
      {"bound_unused_deflated_records.pt2",
       with_unused_records(archive, 4, int64_t{1} << 20, false)},
  };
}

std::vector<uint8_t> mutate_entries(const std::vector<uint8_t>& encoded, Rng* rng) {
  static const char* kTokens[] = {"-1", "null", "[]", "{}", "\"x\"", "1e999", "9223372036854775808",
                                  "true", "0", "4294967296", ":", ",", "\"as_none\"", "65536"};
  aot::testing::ZipEntries entries = aot::testing::unzip_all(pt2_bytes(encoded.data(), encoded.size()));
  if (entries.empty()) return encoded;
  size_t pick = rng->below(entries.size());
  for (size_t i = 0; i < entries.size(); ++i) {  // mostly the program JSON
    const std::string& n = entries[i].first;
    if (rng->below(4) != 0 && n.size() >= 5 && n.compare(n.size() - 5, 5, ".json") == 0 &&
        n.find("model") != std::string::npos) {
      pick = i;
    }
  }
  std::vector<uint8_t>& b = entries[pick].second;
  if (!b.empty()) {
    const size_t pos = rng->below(b.size());
    switch (rng->below(3)) {
      case 0: {
        const char* t = kTokens[rng->below(sizeof(kTokens) / sizeof(kTokens[0]))];
        // Replace the number or literal at pos (up to the next delimiter) with the token.
        size_t end = pos;
        while (end < b.size() && std::strchr(",]}: \n", char(b[end])) == nullptr) ++end;
        b.erase(b.begin() + long(pos), b.begin() + long(end));
        b.insert(b.begin() + long(pos), t, t + std::strlen(t));
        break;
      }
      case 1:
        b.erase(b.begin() + long(pos), b.begin() + long(std::min(b.size(), pos + 1 + rng->below(16))));
        break;
      default:
        b[pos] ^= uint8_t(1u << rng->below(8));
    }
  }
  return encode_entries(entries);
}

}  // namespace ember::fuzz
