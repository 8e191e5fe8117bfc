#include "tests/e2e/fixture_options.h"

namespace ember::testing {

aot::RecipeOptions fixture_recipe_options(const std::string& pt2) {
  aot::RecipeOptions options;
  const size_t slash = pt2.find_last_of('/');
  const std::string name = slash == std::string::npos ? pt2 : pt2.substr(slash + 1);
  if (name.rfind("item_full.", 0) == 0) options.max_dims.per_symbol["u0"] = 16;
  return options;
}

std::string known_fixture_gap(const std::string& id) {
  // Issue #30's corpus (refgen/fixtures/pt2_model_zoo.py): generated and committed ahead of
  // the operators they need.
  static const char* const kGaps[][2] = {
      {"log_mel_stft.core_aten.",
       "needs the real FFT kernel aten::_fft_r2c.out and complex64 tensors (torch.stft's core "
       "ATen form; written on branch s11-ops)"},
      {"log_mel_stft.training_ir.",
       "aten::stft.default has no decomposition yet (to reflect pad, unfold, window multiply "
       "and aten::_fft_r2c), and needs the real FFT kernel aten::_fft_r2c.out (branch s11-ops)"},
  };
  const size_t slash = id.find_last_of('/');
  const std::string name = slash == std::string::npos ? id : id.substr(slash + 1);
  for (const auto& gap : kGaps) {
    if (name.rfind(gap[0], 0) == 0) return gap[1];
  }
  return "";
}

}  // namespace ember::testing
