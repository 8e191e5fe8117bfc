#include "tests/e2e/fixture_options.h"

#include <vector>

namespace ember::testing {

aot::RecipeOptions fixture_recipe_options(const std::string& pt2) {
  aot::RecipeOptions options;
  const size_t slash = pt2.find_last_of('/');
  const std::string name = slash == std::string::npos ? pt2 : pt2.substr(slash + 1);
  if (name.rfind("item_full.", 0) == 0) options.max_dims.per_symbol["u0"] = 16;
  return options;
}

std::string known_fixture_gap(const std::string& id) {
  // Fixtures committed ahead of the operators they need: {name prefix, reason}. Empty now
  // (issue #30's log_mel_stft runs since the FFT kernels, kernels/fft, landed).
  struct Gap {
    const char* prefix;
    const char* reason;
  };
  static const std::vector<Gap> kGaps = {};
  const size_t slash = id.find_last_of('/');
  const std::string name = slash == std::string::npos ? id : id.substr(slash + 1);
  for (const auto& gap : kGaps) {
    if (name.rfind(gap.prefix, 0) == 0) return gap.reason;
  }
  return "";
}

}  // namespace ember::testing
