// Comparing a weight-quantized program with its float original the way an LLM is used: the
// prompt (the .pt2's example inputs), then greedy decode steps. The accuracy report of the
// weight-quantization recipes (xnnpack-8da4w, xnnpack-8da8w, ...; `lower` prints it) and the
// LLM quantization tests use it.
//
// A program "is a decoder step" when its inputs are the token ids int64 [1, S] and their
// positions int64 [S] and output 0 is float logits [1, S, V] (transformers' ExecuTorch export
// and export_llama-style models both are). Then both programs, each loaded once so that their
// KV caches carry over, run the prompt and `decode_steps` one-token steps at the following
// positions, fed the FLOAT program's greedy token (teacher forcing: one early disagreement
// does not derail the comparison of the later steps). Any other program runs the prompt once.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "aot/ir/error.h"
#include "aot/ir/host_tensor.h"
#include "aot/recipe/quant_report.h"
#include "aot/recipe/run_method.h"

namespace ember::aot {

struct DecodeComparison {
  TensorError logits;  // output 0 over the prompt and every step (SQNR, max error)
  int calls = 0;       // prompt + decode steps run on both programs
  int tokens_agree = 0;  // calls whose last-position argmax is the float program's
  std::vector<int64_t> float_tokens, quantized_tokens;  // last-position argmax per call
  bool decoder = false;  // the inputs looked like a decoder step (else one call, no tokens)
};

bool is_decoder_step(const std::vector<HostTensor>& inputs);

// The greedy token: argmax over the last position of float logits [..., vocab]; -1 when the
// tensor is not float or has no vocabulary dimension.
int64_t last_argmax(const HostTensor& logits);

// InvalidArgument when the outputs differ in shape or dtype; runtime errors as they come.
Result<DecodeComparison> compare_greedy_decode(const std::vector<uint8_t>& float_pte,
                                               const std::vector<uint8_t>& quantized_pte,
                                               const std::vector<HostTensor>& prompt,
                                               int decode_steps, const RunOptions& options);

// "logits vs float: SQNR 31.20 dB, max error 0.41 over 17 calls (prompt + 16 greedy steps)"
// and "greedy tokens: 17/17 agree" (with both token lists when they differ).
std::string format_decode_comparison(const DecodeComparison& c);

}  // namespace ember::aot
