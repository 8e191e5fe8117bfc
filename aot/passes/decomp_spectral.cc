// Decompositions of the spectral training-IR ops (audio front ends):
//   hann_window(N, periodic=True) -> 0.5 - 0.5 * cos(2 pi arange(N) / (periodic ? N : N - 1))
//   stft(x, n_fft, hop, win_length, window, normalized, onesided, return_complex=True)
//        -> frames = unfold(x, -1, n_fft, hop); frames * window;
//           _fft_r2c(frames, [last], normalized ? 1 : 0, onesided); permute(freq, frame)
// torch.stft's centring is already a separate pad node in the exported graph (stft.default has
// no center argument). Windows shorter than n_fft, return_complex=False and align_to_window are
// refused with NotSupported.
#include <cmath>

#include "aot/ir/graph_rewrite.h"
#include "aot/passes/decompositions.h"

namespace ember::aot {
namespace {

NamedArgument named(const char* name, Argument a) { return {name, std::move(a), false}; }

// A new value shaped `sizes` of `dtype`, named after the node.
Result<ValueId> temp(Graph& g, const Node& node, const char* what, ScalarType dtype,
                     std::vector<SymInt> sizes) {
  return add_tensor_value(g, node.name + "_" + what, contiguous_spec(dtype, std::move(sizes)));
}

Result<Rewrite> hann(Graph& g, const Node& node, bool periodic) {
  Rewrite rw;
  const Argument* n_arg = input_arg(node, "window_length");
  const ValueId out = node_output(node);
  if (n_arg == nullptr || !n_arg->values.empty() || out == kNoValue) {
    return not_supported(node.describe() + ": window_length must be a constant int");
  }
  const int64_t n = n_arg->i;
  const ScalarType dtype = g.value(out).tensor.dtype;
  if (n <= 0) return invalid_program(node.describe() + ": window_length must be positive");
  const int64_t denominator = periodic ? n : n - 1;
  const std::vector<SymInt> sizes = {SymInt::of(n)};
  EMBER_ASSIGN_OR_RETURN(ValueId idx, temp(g, node, "arange", dtype, sizes));
  rw.nodes.push_back(make_op_node(
      "aten", "arange", "start_step",
      {named("start", Argument::integer(0)), named("end", Argument::integer(n)),
       named("step", Argument::integer(1)), named("dtype", Argument::scalar_type(dtype))},
      {Argument::tensor(idx)}, node));
  if (denominator == 0) {  // a length-1 symmetric window is [1]: 0 * x + 1
    rw.nodes.push_back(make_op_node("aten", "mul", "Scalar",
                                    {named("self", Argument::tensor(idx)),
                                     named("other", Argument::floating(0.0))},
                                    {node.outputs[0]}, node));
    return rw;
  }
  const double pi = 3.14159265358979323846;
  EMBER_ASSIGN_OR_RETURN(ValueId angle, temp(g, node, "angle", dtype, sizes));
  rw.nodes.push_back(make_op_node("aten", "mul", "Scalar",
                                  {named("self", Argument::tensor(idx)),
                                   named("other", Argument::floating(2 * pi / double(denominator)))},
                                  {Argument::tensor(angle)}, node));
  EMBER_ASSIGN_OR_RETURN(ValueId cosine, temp(g, node, "cos", dtype, sizes));
  rw.nodes.push_back(make_op_node("aten", "cos", "default", {named("self", Argument::tensor(angle))},
                                  {Argument::tensor(cosine)}, node));
  EMBER_ASSIGN_OR_RETURN(ValueId half, temp(g, node, "half_cos", dtype, sizes));
  rw.nodes.push_back(make_op_node("aten", "mul", "Scalar",
                                  {named("self", Argument::tensor(cosine)),
                                   named("other", Argument::floating(-0.5))},
                                  {Argument::tensor(half)}, node));
  rw.nodes.push_back(make_op_node("aten", "add", "Scalar",
                                  {named("self", Argument::tensor(half)),
                                   named("other", Argument::floating(0.5))},
                                  {node.outputs[0]}, node));
  return rw;
}

Result<Rewrite> decompose_hann_window(Graph& g, const Node& node) { return hann(g, node, true); }

Result<Rewrite> decompose_hann_window_periodic(Graph& g, const Node& node) {
  const Argument* periodic = input_arg(node, "periodic");
  return hann(g, node, periodic == nullptr || periodic->b);
}

int64_t int_or(const Node& node, const char* name, int64_t fallback) {
  const Argument* a = input_arg(node, name);
  return a == nullptr || a->kind == ArgKind::None ? fallback : a->i;
}

Result<Rewrite> decompose_stft(Graph& g, const Node& node) {
  Rewrite rw;
  EMBER_ASSIGN_OR_RETURN(ValueId x, tensor_input(node, "self"));
  const ValueId out = node_output(node);
  // Copies: temp() below adds values, which may move every TensorSpec.
  const TensorSpec xs = g.value(x).tensor;
  const Argument* rc = input_arg(node, "return_complex");
  const Argument* align = input_arg(node, "align_to_window");
  if (rc == nullptr || rc->kind != ArgKind::Bool || !rc->b) {
    return not_supported(node.describe() + ": stft needs return_complex=True");
  }
  if (align != nullptr && align->kind == ArgKind::Bool && align->b) {
    return not_supported(node.describe() + ": stft with align_to_window=True");
  }
  if (out == kNoValue || (xs.sizes.size() != 1 && xs.sizes.size() != 2) ||
      xs.dtype != ScalarType::Float) {
    return not_supported(node.describe() + ": stft of a float32 signal [L] or [B, L] only");
  }
  const int64_t n_fft = int_or(node, "n_fft", 0);
  const int64_t hop = int_or(node, "hop_length", n_fft / 4);
  const int64_t win_length = int_or(node, "win_length", n_fft);
  const ValueId window = optional_tensor_input(node, "window");
  if (n_fft <= 0 || hop <= 0 || win_length != n_fft ||
      (window != kNoValue && (g.value(window).tensor.sizes.size() != 1 ||
                              !g.value(window).tensor.sizes[0].is_static ||
                              g.value(window).tensor.sizes[0].value != n_fft))) {
    return not_supported(node.describe() +
                         ": stft needs a positive n_fft and hop and a window of n_fft samples");
  }
  const TensorSpec os = g.value(out).tensor;  // [B?, F, frames]
  const size_t rank = os.sizes.size();
  if (rank != xs.sizes.size() + 1) return invalid_program(node.describe() + ": output rank");
  const SymInt freqs = os.sizes[rank - 2], frames = os.sizes[rank - 1];
  std::vector<SymInt> frame_sizes(os.sizes.begin(), os.sizes.end() - 2);
  frame_sizes.push_back(frames);
  frame_sizes.push_back(SymInt::of(n_fft));
  EMBER_ASSIGN_OR_RETURN(ValueId framed, temp(g, node, "frames", xs.dtype, frame_sizes));
  rw.nodes.push_back(make_op_node("aten", "unfold", "default",
                                  {named("self", Argument::tensor(x)),
                                   named("dimension", Argument::integer(-1)),
                                   named("size", Argument::integer(n_fft)),
                                   named("step", Argument::integer(hop))},
                                  {Argument::tensor(framed)}, node));
  ValueId windowed = framed;
  if (window != kNoValue) {
    EMBER_ASSIGN_OR_RETURN(windowed, temp(g, node, "windowed", xs.dtype, frame_sizes));
    rw.nodes.push_back(make_op_node("aten", "mul", "Tensor",
                                    {named("self", Argument::tensor(framed)),
                                     named("other", Argument::tensor(window))},
                                    {Argument::tensor(windowed)}, node));
  }
  std::vector<SymInt> spectrum_sizes(frame_sizes.begin(), frame_sizes.end() - 1);
  spectrum_sizes.push_back(freqs);
  EMBER_ASSIGN_OR_RETURN(ValueId spectrum,
                         temp(g, node, "spectrum", ScalarType::ComplexFloat, spectrum_sizes));
  const Argument* normalized = input_arg(node, "normalized");
  const Argument* onesided = input_arg(node, "onesided");
  rw.nodes.push_back(make_op_node(
      "aten", "_fft_r2c", "default",
      {named("self", Argument::tensor(windowed)),
       named("dim", Argument::int_list({static_cast<int64_t>(rank - 1)})),
       named("normalization",
             Argument::integer(normalized != nullptr && normalized->b ? 1 : 0)),
       named("onesided", Argument::boolean(onesided == nullptr ||
                                           onesided->kind != ArgKind::Bool || onesided->b))},
      {Argument::tensor(spectrum)}, node));
  std::vector<int64_t> dims;
  for (size_t d = 0; d + 2 < rank; ++d) dims.push_back(static_cast<int64_t>(d));
  dims.push_back(static_cast<int64_t>(rank - 1));
  dims.push_back(static_cast<int64_t>(rank - 2));
  rw.nodes.push_back(make_op_node("aten", "permute", "default",
                                  {named("self", Argument::tensor(spectrum)),
                                   named("dims", Argument::int_list(dims))},
                                  {node.outputs[0]}, node));
  return rw;
}

}  // namespace

void add_spectral_decompositions(DecompositionTable* table) {
  (*table)["aten::hann_window.default"] = &decompose_hann_window;
  (*table)["aten::hann_window.periodic"] = &decompose_hann_window_periodic;
  (*table)["aten::stft.default"] = &decompose_stft;
}

}  // namespace ember::aot
