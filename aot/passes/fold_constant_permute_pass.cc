// FoldConstantPermutePass (see fold_constant_permute_pass.h).
#include "aot/passes/fold_constant_permute_pass.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <utility>

#include "aot/ir/graph_rewrite.h"

namespace ember::aot {

namespace {

// Bytes of a C-contiguous tensor `sizes` (elements of `esize` bytes) permuted by `dims`:
// out[i_0, ..., i_{r-1}] = in[j] with j[dims[k]] = i_k.
std::vector<uint8_t> permute_bytes(const std::vector<uint8_t>& in, const std::vector<int64_t>& sizes,
                                   const std::vector<int64_t>& dims, size_t esize) {
  const size_t rank = sizes.size();
  std::vector<int64_t> in_strides(rank, 1), out_sizes(rank), src_strides(rank);
  for (size_t k = rank; k-- > 1;) in_strides[k - 1] = in_strides[k] * sizes[k];
  for (size_t k = 0; k < rank; ++k) {
    out_sizes[k] = sizes[size_t(dims[k])];
    src_strides[k] = in_strides[size_t(dims[k])];
  }
  std::vector<uint8_t> out(in.size());
  std::vector<int64_t> idx(rank, 0);
  const size_t count = in.size() / esize;
  for (size_t q = 0; q < count; ++q) {
    int64_t src = 0;
    for (size_t k = 0; k < rank; ++k) src += idx[k] * src_strides[k];
    std::memcpy(out.data() + q * esize, in.data() + size_t(src) * esize, esize);
    for (size_t k = rank; k-- > 0;) {
      if (++idx[k] < out_sizes[k]) break;
      idx[k] = 0;
    }
  }
  return out;
}

// Permuted constants already made, by (source constant, dims): a second permute of the same
// weight reads the first one's value.
using Folded = std::map<std::pair<ValueId, std::vector<int64_t>>, ValueId>;

// Folds node `n` if it is a permute of a static constant: in place when nothing else reads the
// constant, else into a new constant (the permute's output) beside it.
bool try_fold(Graph& g, const Node& n, const std::vector<int32_t>& uses, Folded* folded) {
  if (n.kind != NodeKind::Op || n.op.ns != "aten" || n.op.name != "permute" ||
      n.op.overload != "default" || n.outputs.size() != 1) {
    return false;
  }
  const NamedArgument* self = n.find_input("self");
  const NamedArgument* dims_arg = n.find_input("dims");
  if (self == nullptr || dims_arg == nullptr) return false;
  const ValueId src = tensor_of(self->arg), dst = tensor_of(n.outputs[0]);
  if (src == kNoValue || dst == kNoValue) return false;
  for (const Argument& out : g.outputs()) {
    if (tensor_of(out) == dst) return false;  // outputs stay computed values
  }
  TensorSpec& spec = g.value(src).tensor;
  const int64_t nbytes = spec.static_nbytes();
  if (spec.constant == nullptr || !spec.is_static() || nbytes < 0 ||
      int64_t(spec.constant->bytes.size()) != nbytes || spec.static_numel() <= 0) {
    return false;
  }
  const size_t rank = spec.rank();
  std::vector<int64_t> dims = dims_arg->arg.ints, sizes;
  if (dims_arg->arg.kind != ArgKind::IntList || dims.size() != rank) return false;
  std::vector<bool> seen(rank, false);
  for (int64_t& d : dims) {
    if (d < 0) d += int64_t(rank);
    if (d < 0 || d >= int64_t(rank) || seen[size_t(d)]) return false;
    seen[size_t(d)] = true;
  }
  auto done = folded->find({src, dims});
  if (done != folded->end()) {
    replace_uses(g, dst, done->second);
    return true;
  }
  for (const SymInt& s : spec.sizes) sizes.push_back(s.value);
  const size_t esize = size_t(nbytes / spec.static_numel());
  auto c = std::make_shared<ConstantData>();
  c->bytes = permute_bytes(spec.constant->bytes, sizes, dims, esize);
  c->source = spec.constant->source + " (permuted ahead of time)";
  std::vector<int64_t> out_sizes;
  for (int64_t d : dims) out_sizes.push_back(sizes[size_t(d)]);
  TensorSpec permuted = contiguous_spec(spec.dtype, static_sizes(out_sizes));
  permuted.constant = std::move(c);
  permuted.requires_grad = spec.requires_grad;
  if (uses[size_t(src)] != 1) {  // the constant is read elsewhere too: keep it, add the copy
    g.value(dst).tensor = std::move(permuted);
    lift_as_parameter(g, dst);
    (*folded)[{src, dims}] = dst;
    return true;
  }
  spec = std::move(permuted);
  replace_uses(g, dst, src);
  (*folded)[{src, dims}] = src;
  return true;
}

}  // namespace

Error FoldConstantPermutePass::run(Graph& graph) const {
  const std::vector<int32_t> uses = use_counts(graph);
  std::vector<bool> drop(graph.nodes().size(), false);
  Folded folded;
  for (size_t i = 0; i < graph.nodes().size(); ++i) {
    drop[i] = try_fold(graph, graph.nodes()[i], uses, &folded);
  }
  remove_nodes(graph, drop);
  return Error::Ok;
}

}  // namespace ember::aot
