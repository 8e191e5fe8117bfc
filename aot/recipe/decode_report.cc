// compare_greedy_decode (see decode_report.h).
#include "aot/recipe/decode_report.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>

namespace ember::aot {

int64_t last_argmax(const HostTensor& logits) {
  const int64_t vocab = logits.sizes.empty() ? 0 : logits.sizes.back();
  if (vocab <= 0 || logits.dtype != ScalarType::Float) return -1;
  const int64_t base = logits.numel() - vocab;
  int64_t best = 0;
  float best_v = -std::numeric_limits<float>::infinity();
  for (int64_t i = 0; i < vocab; ++i) {
    float v;
    std::memcpy(&v, logits.bytes.data() + 4 * (base + i), 4);
    if (i == 0 || v > best_v) best = i, best_v = v;
  }
  return best;
}

namespace {

HostTensor int64_tensor(std::vector<int64_t> sizes, const std::vector<int64_t>& values) {
  HostTensor t;
  t.dtype = ScalarType::Long;
  t.sizes = std::move(sizes);
  t.bytes.resize(values.size() * 8);
  if (!values.empty()) std::memcpy(t.bytes.data(), values.data(), t.bytes.size());
  return t;
}

int64_t last_position(const HostTensor& positions) {
  int64_t p = 0;
  std::memcpy(&p, positions.bytes.data() + positions.bytes.size() - 8, 8);
  return p;
}

}  // namespace

bool is_decoder_step(const std::vector<HostTensor>& inputs) {
  if (inputs.size() != 2) return false;
  const HostTensor& tokens = inputs[0];
  const HostTensor& positions = inputs[1];
  return tokens.dtype == ScalarType::Long && positions.dtype == ScalarType::Long &&
         tokens.sizes.size() == 2 && tokens.sizes[0] == 1 && positions.sizes.size() == 1 &&
         positions.sizes[0] == tokens.sizes[1] && positions.sizes[0] > 0;
}

Result<DecodeComparison> compare_greedy_decode(const std::vector<uint8_t>& float_pte,
                                               const std::vector<uint8_t>& quantized_pte,
                                               const std::vector<HostTensor>& prompt,
                                               int decode_steps, const RunOptions& options) {
  DecodeComparison c;
  c.logits.name = "logits";
  c.decoder = is_decoder_step(prompt);
  if (!c.decoder) decode_steps = 0;
  EMBER_ASSIGN_OR_RETURN(std::unique_ptr<PteRunner> ref, PteRunner::load(float_pte, options));
  EMBER_ASSIGN_OR_RETURN(std::unique_ptr<PteRunner> got, PteRunner::load(quantized_pte, options));
  std::vector<HostTensor> inputs = prompt;
  double signal = 0, noise = 0;
  for (int call = 0; call <= decode_steps; ++call) {
    EMBER_ASSIGN_OR_RETURN(std::vector<HostTensor> a, ref->run("forward", inputs));
    EMBER_ASSIGN_OR_RETURN(std::vector<HostTensor> b, got->run("forward", inputs));
    if (a.empty() || b.empty()) return fail(Error::InvalidArgument, "the program has no outputs");
    if (a[0].sizes != b[0].sizes) {
      return fail(Error::InvalidArgument, "float and quantized logits differ in shape");
    }
    EMBER_TRY(accumulate_error(a[0], b[0], &signal, &noise, &c.logits));
    ++c.calls;
    if (!c.decoder) break;
    const int64_t ta = last_argmax(a[0]), tb = last_argmax(b[0]);
    c.float_tokens.push_back(ta);
    c.quantized_tokens.push_back(tb);
    c.tokens_agree += ta == tb ? 1 : 0;
    const int64_t next_pos = last_position(inputs[1]) + 1;
    inputs = {int64_tensor({1, 1}, {ta}), int64_tensor({1}, {next_pos})};
  }
  c.logits.sqnr_db = noise == 0 ? std::numeric_limits<double>::infinity()
                                : 10.0 * std::log10(signal / noise);
  return c;
}

std::string format_decode_comparison(const DecodeComparison& c) {
  char buf[256];
  std::string s;
  if (!c.decoder) {
    std::snprintf(buf, sizeof buf,
                  "  output 0 vs float on the example inputs: SQNR %.2f dB, max error %.4g\n",
                  c.logits.sqnr_db, c.logits.max_abs_error);
    return buf;
  }
  std::snprintf(buf, sizeof buf,
                "  logits vs float: SQNR %.2f dB, max error %.4g over %d calls (prompt + %d "
                "greedy steps)\n  greedy tokens: %d/%d agree\n",
                c.logits.sqnr_db, c.logits.max_abs_error, c.calls, c.calls - 1, c.tokens_agree,
                c.calls);
  s = buf;
  if (c.tokens_agree != c.calls) {
    std::string a = "    float:     ", b = "    quantized: ";
    for (size_t i = 0; i < c.float_tokens.size(); ++i) {
      a += std::to_string(c.float_tokens[i]) + " ";
      b += std::to_string(c.quantized_tokens[i]) + " ";
    }
    s += a + "\n" + b + "\n";
  }
  return s;
}

}  // namespace ember::aot
