// ShapePlan: shape propagation, subgraph definition and runtime creation for one
// set of input shapes; see shape_plan.h.
#include "backends/xnnpack/runtime/shape_plan.h"
#include "backends/xnnpack/runtime/few_rows_stage.h"
#include "backends/xnnpack/runtime/grouped16_stage.h"

#include <cstdlib>
#include <cstring>
#include <new>

#include "backends/xnnpack/runtime/define_node.h"
#include "backends/xnnpack/runtime/stage_work.h"
#include "runtime/core/diagnostics.h"

namespace ember::backends::xnnpack {

using runtime::Error;
using runtime::fail;

ShapePlan::~ShapePlan() {
  for (uint32_t s = 0; runtimes_ != nullptr && s < num_stages_; ++s) {
    if (runtimes_[s] != nullptr) xnn_delete_runtime(runtimes_[s]);
    if (winograd_ != nullptr) delete winograd_[s];
  }
  std::free(runtimes_);
  std::free(winograd_);
  std::free(offsets_);
  std::free(bound_);
  std::free(bound_offset_);
  std::free(shapes_);
}

namespace {

uint64_t saturating_mul(uint64_t a, uint64_t b) {
  return (b != 0 && a > UINT64_MAX / b) ? UINT64_MAX : a * b;
}

// XNNPACK's convolution and pooling operators build an indirection buffer of one pointer
// per output pixel and kernel tap; a huge kernel over a modest output asks for gigabytes.
uint64_t indirection_bytes(const NodeDesc& d, const Shape* shapes) {
  uint64_t taps = 0;
  switch (d.type) {
    case fb_xnnpack::XNodeUnion::XNNConv2d: case fb_xnnpack::XNodeUnion::XNNDepthwiseConv2d:
    case fb_xnnpack::XNodeUnion::XNNConvTranspose2d: {
      const auto* c = static_cast<const fb_xnnpack::_XNNNodeConv*>(d.node->xnode_union());
      taps = uint64_t{c->kernel_height()} * c->kernel_width();
      break;
    }
    case fb_xnnpack::XNodeUnion::XNNAvgPooling2d: case fb_xnnpack::XNodeUnion::XNNMaxPooling2d: {
      const auto* p = static_cast<const fb_xnnpack::_XNNPooling2D*>(d.node->xnode_union());
      taps = uint64_t{p->pooling_height()} * p->pooling_width();
      break;
    }
    default:
      return 0;
  }
  const Shape& out = shapes[d.outputs[0]];
  const uint64_t pixels = out.rank == 4 ? saturating_mul(out.dims[0], saturating_mul(out.dims[1], out.dims[2])) : 1;
  return saturating_mul(saturating_mul(pixels, taps), sizeof(void*));
}

// Bytes of every activation in `shapes` and of the operators' indirection buffers,
// overflow-checked, against kMaxValueBytes and kMaxActivationBytes. Constants were
// checked against their data at load.
Error check_activation_bytes(const GraphModel& m, const Shape* shapes) {
  uint64_t total = 0;
  for (uint32_t v = 0; v < m.num_values; ++v) {
    if (!m.values[v].defined || m.values[v].data != nullptr) continue;
    uint64_t bytes = datatype_size(m.values[v].datatype);
    for (uint32_t d = 0; d < shapes[v].rank; ++d) bytes = saturating_mul(bytes, shapes[v].dims[d]);
    if (bytes > kMaxValueBytes) {
      return fail(Error::InvalidProgram,
                  "XNNPACK value %u: its %u-D %s shape needs more than the delegate's %llu MiB "
                  "limit per activation", v, shapes[v].rank, datatype_name(m.values[v].datatype),
                  static_cast<unsigned long long>(kMaxValueBytes >> 20));
    }
    total += bytes;
  }
  for (uint32_t i = 0; i < m.num_nodes; ++i) {
    const uint64_t bytes = m.nodes[i].runner != NodeRunner::Unsupported ? indirection_bytes(m.nodes[i], shapes) : 0;
    if (bytes > kMaxValueBytes) {
      return fail(Error::InvalidProgram,
                  "XNNPACK node %u (%s): output pixels x kernel taps need more than the delegate's "
                  "%llu MiB limit per indirection buffer", i, node_type_name(m.nodes[i].type),
                  static_cast<unsigned long long>(kMaxValueBytes >> 20));
    }
    total += bytes;
  }
  if (total > kMaxActivationBytes) {
    return fail(Error::InvalidProgram,
                "XNNPACK: the activations need %llu MiB, more than the delegate's %llu MiB limit",
                static_cast<unsigned long long>(total >> 20),
                static_cast<unsigned long long>(kMaxActivationBytes >> 20));
  }
  return Error::Ok;
}

// This XNNPACK gives a value with no elements no memory and then asserts on the null
// pointer in setup (found by xnnpack_blob_fuzz: a batch-0 input through a convolution),
// so XNNPACK-run nodes must not touch empty tensors.
Error check_no_empty_values(const GraphModel& m, const Shape* shapes) {
  for (uint32_t i = 0; i < m.num_nodes; ++i) {
    const NodeDesc& d = m.nodes[i];
    if (d.runner == NodeRunner::Unsupported) continue;
    for (uint32_t k = 0; k < d.num_inputs + d.num_outputs; ++k) {
      const uint32_t v = k < d.num_inputs ? d.inputs[k] : d.outputs[k - d.num_inputs];
      if (v == kInvalidId || shapes[v].numel() != 0) continue;
      return fail(Error::NotSupported,
                  "XNNPACK node %u (%s): value %u has no elements; this XNNPACK cannot run "
                  "empty tensors", i, node_type_name(d.type), v);
    }
  }
  return Error::Ok;
}

// A reshape whose input is made in stage `st`, read by nothing else and not external, and whose
// output is an external of the stage, only copies that input out of XNNPACK's workspace: the
// producer can write the external output instead (a reshape keeps the bytes and their order), and
// the input then needs no workspace. A decoder's head is such a case: the logits [n, vocab]
// reshaped to [1, n, vocab] (12.6 MB of workspace at 64 tokens for SmolLM2-135M, plus the copy).
// Returns the reshape's input, or kInvalidId.
uint32_t elidable_reshape_input(const GraphModel& m, const Stage& st, uint32_t node,
                                const Shape* shapes) {
  const NodeDesc& d = m.nodes[node];
  if (d.type != fb_xnnpack::XNodeUnion::XNNStaticReshape || d.num_inputs != 1 || d.num_outputs != 1) {
    return kInvalidId;
  }
  const uint32_t in = d.inputs[0], out = d.outputs[0];
  if (in == kInvalidId || out == kInvalidId || in == out) return kInvalidId;
  const ValueInfo& iv = m.values[in];
  const ValueInfo& ov = m.values[out];
  if (iv.data != nullptr || is_graph_input(iv) || is_graph_output(iv) ||
      iv.datatype != ov.datatype || iv.datatype == fb_xnnpack::XNNDatatype::xnn_datatype_qdint8 ||
      shapes[in].numel() != shapes[out].numel()) {
    return kInvalidId;
  }
  bool out_external = false;
  for (uint32_t k = 0; k < st.num_externals; ++k) {
    if (st.externals[k] == in) return kInvalidId;
    out_external |= st.externals[k] == out;
  }
  if (!out_external) return kInvalidId;
  // Only a fully-connected producer: its reshape derives the output's dims from its input, so
  // it may write an external value of another rank. Other operators (a transpose, a softmax,
  // an element-wise op) check the output's rank against their own and refuse the external value
  // with invalid_parameter (MaxViT's block attention did).
  bool made_here = false;
  for (uint32_t i = st.first_node; i < st.end_node; ++i) {
    for (uint32_t o = 0; o < m.nodes[i].num_outputs; ++o) {
      if (m.nodes[i].outputs[o] != in) continue;
      if (m.nodes[i].type != fb_xnnpack::XNodeUnion::XNNFullyConnected) return kInvalidId;
      made_here = true;
    }
  }
  if (!made_here) return kInvalidId;
  for (uint32_t i = 0; i < m.num_nodes; ++i) {
    if (i == node) continue;
    for (uint32_t k = 0; k < m.nodes[i].num_inputs; ++k) {
      if (m.nodes[i].inputs[k] == in) return kInvalidId;
    }
  }
  return in;
}

// The whole graph is one StaticReshape from a graph input to a graph output of one datatype.
bool is_lone_reshape(const GraphModel& m, const Partition& p, const Shape* shapes) {
  if (p.num_stages != 1 || m.num_nodes != 1 || p.stages[0].runner != NodeRunner::Subgraph) return false;
  const NodeDesc& d = m.nodes[0];
  if (d.type != fb_xnnpack::XNodeUnion::XNNStaticReshape || d.num_inputs != 1 || d.num_outputs != 1 ||
      d.inputs[0] == kInvalidId || d.outputs[0] == kInvalidId || d.inputs[0] == d.outputs[0]) {
    return false;
  }
  const ValueInfo& in = m.values[d.inputs[0]];
  const ValueInfo& out = m.values[d.outputs[0]];
  return in.data == nullptr && is_graph_input(in) && is_graph_output(out) &&
         in.datatype == out.datatype && shapes[d.inputs[0]].numel() == shapes[d.outputs[0]].numel();
}

}  // namespace

bool ShapePlan::matches(const GraphModel& m, const Partition& p, const Shape* inputs) const {
  for (uint32_t e = 0; e < m.num_externs; ++e) {
    const uint32_t v = p.extern_value[e];
    if (is_graph_input(m.values[v]) && !(shapes_[v] == inputs[e])) return false;
  }
  return true;
}

Error ShapePlan::build(const GraphModel& m, const Partition& p, const Shape* inputs,
                       pthreadpool_t pool, uint64_t min_parallel_work,
                       PackedWeightsCache* weights_cache, xnn_workspace_t workspace) {
  num_values_ = m.num_values;
  num_stages_ = p.num_stages;
  const size_t nv = m.num_values == 0 ? 1 : m.num_values;
  shapes_ = static_cast<Shape*>(std::calloc(nv, sizeof(Shape)));
  offsets_ = static_cast<size_t*>(std::malloc(nv * sizeof(size_t)));
  runtimes_ = static_cast<xnn_runtime_t*>(std::calloc(num_stages_ + 1, sizeof(xnn_runtime_t)));
  winograd_ = static_cast<WinogradStage**>(std::calloc(num_stages_ + 1, sizeof(WinogradStage*)));
  uint32_t* xnn_ids = static_cast<uint32_t*>(std::calloc(nv, sizeof(uint32_t)));
  bound_offset_ = static_cast<uint32_t*>(std::calloc(num_stages_ + 1, sizeof(uint32_t)));
  size_t total_externals = 0;
  for (uint32_t s = 0; bound_offset_ != nullptr && s < p.num_stages; ++s) {
    bound_offset_[s] = static_cast<uint32_t>(total_externals);
    total_externals += p.stages[s].num_externals;
  }
  bound_ = static_cast<void**>(std::calloc(total_externals + 1, sizeof(void*)));
  if (!shapes_ || !offsets_ || !runtimes_ || !winograd_ || !xnn_ids || !bound_offset_ || !bound_) {
    std::free(xnn_ids);
    return fail(Error::DelegateMemoryAllocationFailed, "XNNPACK: no memory for a shape plan");
  }
  for (uint32_t v = 0; v < nv; ++v) offsets_[v] = kNoBuffer;
  for (uint32_t v = 0; v < m.num_values; ++v) shapes_[v] = declared_shape(m.values[v]);
  for (uint32_t e = 0; e < m.num_externs; ++e) {
    const uint32_t v = p.extern_value[e];
    if (is_graph_input(m.values[v])) shapes_[v] = inputs[e];
  }
  Error err = Error::Ok;
  for (uint32_t i = 0; i < m.num_nodes && err == Error::Ok; ++i) {
    err = infer_node_shapes(m, i, shapes_);
  }
  if (err == Error::Ok) err = check_activation_bytes(m, shapes_);
  if (err == Error::Ok) err = check_no_empty_values(m, shapes_);
  if (err == Error::Ok && is_lone_reshape(m, p, shapes_)) {
    copy_only_ = true;
    std::free(xnn_ids);
    return Error::Ok;
  }
  // Buffers: boundary values, and graph inputs XNNPACK reads (it may over-read
  // XNN_EXTRA_BYTES past the end, so they are copied into padded memory), laid out one after
  // another in the scratch (check_activation_bytes bounded their sum).
  for (uint32_t v = 0; v < m.num_values && err == Error::Ok; ++v) {
    const bool padded_input = is_graph_input(m.values[v]) && p.feeds_subgraph[v];
    if (!p.boundary[v] && !padded_input) continue;
    const size_t bytes = shapes_[v].numel() * datatype_size(m.values[v].datatype) + XNN_EXTRA_BYTES;
    offsets_[v] = scratch_bytes_;
    scratch_bytes_ += (bytes + kScratchAlignment - 1) / kScratchAlignment * kScratchAlignment;
  }
  for (uint32_t s = 0; s < p.num_stages && err == Error::Ok; ++s) {
    const Stage& st = p.stages[s];
    const bool parallel = pool != nullptr && work_per_node(m, st, shapes_) >= min_parallel_work;
    num_parallel_stages_ += parallel;
    // grouped16_stage.h / few_rows_stage.h run single-threaded: with a pool of several threads
    // the node runs as a one-node subgraph, which XNNPACK splits over the pool.
    const bool one_thread = pool == nullptr || pthreadpool_get_threads_count(pool) <= 1;
    if (st.runner == NodeRunner::Grouped16 && one_thread) {  // run by the delegate: no runtime
      err = check_grouped16(m, st.first_node, shapes_);
      continue;
    }
    if (st.runner == NodeRunner::FewRows && one_thread && few_rows_applies(m, st.first_node, shapes_)) {
      continue;  // run by the delegate: no runtime
    }
    if (st.runner == NodeRunner::Winograd && WinogradStage::applies(m, st.first_node, shapes_)) {
      winograd_[s] = new (std::nothrow) WinogradStage();
      ++num_winograd_stages_;
      err = winograd_[s] == nullptr
                ? fail(Error::DelegateMemoryAllocationFailed, "XNNPACK: no memory for a Winograd stage")
                : winograd_[s]->build(m, st.first_node, shapes_, parallel ? pool : nullptr);
      continue;
    }
    err = build_stage(m, p, s, parallel ? pool : nullptr, weights_cache, workspace, xnn_ids);
  }
  std::free(xnn_ids);
  return err;
}

Error ShapePlan::build_stage(const GraphModel& m, const Partition& p, uint32_t s,
                             pthreadpool_t pool, PackedWeightsCache* weights_cache,
                             xnn_workspace_t workspace, uint32_t* xnn_ids) {
  const Stage& st = p.stages[s];
  xnn_subgraph_t sg = nullptr;
  xnn_status status = xnn_create_subgraph(m.num_values, 0, &sg);
  if (status != xnn_status_success) {
    return fail(Error::DelegateMemoryAllocationFailed, "XNNPACK: xnn_create_subgraph failed with %s",
                xnn_status_name(status));
  }
  for (uint32_t v = 0; v < m.num_values; ++v) xnn_ids[v] = XNN_INVALID_VALUE_ID;
  // External values keep their value id as XNNPACK external id.
  Error err = Error::Ok;
  for (uint32_t k = 0; k < st.num_externals && err == Error::Ok; ++k) {
    const uint32_t v = st.externals[k];
    bool produced_here = false;
    for (uint32_t i = st.first_node; i < st.end_node; ++i) {
      for (uint32_t o = 0; o < m.nodes[i].num_outputs; ++o) produced_here |= m.nodes[i].outputs[o] == v;
    }
    const uint32_t flags = produced_here ? XNN_VALUE_FLAG_EXTERNAL_OUTPUT : XNN_VALUE_FLAG_EXTERNAL_INPUT;
    err = define_value(sg, m, v, shapes_[v], v, flags, &xnn_ids[v]);
  }
  // Elided reshapes: their input is the external output's XNNPACK value.
  for (uint32_t i = st.first_node; i < st.end_node && err == Error::Ok; ++i) {
    const uint32_t in = elidable_reshape_input(m, st, i, shapes_);
    if (in == kInvalidId) continue;
    xnn_ids[in] = xnn_ids[m.nodes[i].outputs[0]];
    ++num_elided_reshapes_;
  }
  for (uint32_t i = st.first_node; i < st.end_node && err == Error::Ok; ++i) {
    const NodeDesc& d = m.nodes[i];
    if (d.type == fb_xnnpack::XNodeUnion::XNNStaticReshape && d.num_inputs == 1 &&
        d.num_outputs == 1 && xnn_ids[d.inputs[0]] == xnn_ids[d.outputs[0]] &&
        xnn_ids[d.inputs[0]] != XNN_INVALID_VALUE_ID) {
      continue;  // elided above
    }
    for (uint32_t k = 0; k < d.num_inputs + d.num_outputs && err == Error::Ok; ++k) {
      const uint32_t v = k < d.num_inputs ? d.inputs[k] : d.outputs[k - d.num_inputs];
      if (v == kInvalidId || xnn_ids[v] != XNN_INVALID_VALUE_ID) continue;
      err = define_value(sg, m, v, shapes_[v], XNN_INVALID_VALUE_ID, 0, &xnn_ids[v]);
    }
    if (err == Error::Ok) err = define_node(DefineContext{sg, &m, xnn_ids, shapes_}, i);
  }
  if (err == Error::Ok) {
    // The plan's shapes are fixed: the runtime is reshaped once, here; execute() only
    // rebinds pointers (xnn_setup_runtime_v2).
    // No shared workspace: one of the runtime's own, created here and released after creation
    // (the runtime holds its own reference), as xnn_create_runtime_v3 does. Passing null lets
    // XNNPACK 2024-11 allocate one that leaks when creation fails (xnnpack_blob_fuzz).
    xnn_workspace_t own = nullptr;
    if (workspace == nullptr) {
      status = xnn_create_workspace(&own);
      if (status != xnn_status_success) {
        xnn_delete_subgraph(sg);
        return fail(Error::DelegateMemoryAllocationFailed,
                    "XNNPACK: xnn_create_workspace failed with %s", xnn_status_name(status));
      }
    }
    if (weights_cache != nullptr) weights_cache->set_open(true);
    status = xnn_create_runtime_v4(sg, weights_cache == nullptr ? nullptr : weights_cache->provider(),
                                   workspace != nullptr ? workspace : own, pool, 0, &runtimes_[s]);
    if (weights_cache != nullptr) weights_cache->set_open(false);
    if (own != nullptr) xnn_release_workspace(own);
    const char* fn = "xnn_create_runtime_v4";
    if (status == xnn_status_success) {
      fn = "xnn_reshape_runtime";
      status = xnn_reshape_runtime(runtimes_[s]);
    }
    if (status != xnn_status_success) {
      if (runtimes_[s] != nullptr) xnn_delete_runtime(runtimes_[s]);
      runtimes_[s] = nullptr;
      err = fail(Error::NotSupported, "XNNPACK: %s for nodes %u..%u failed with %s", fn,
                 st.first_node, st.end_node - 1, xnn_status_name(status));
    }
  }
  xnn_delete_subgraph(sg);
  return err;
}

Error ShapePlan::run(const GraphModel& m, const Partition& p, void* const* data,
                     xnn_external_value* ext) const {
  if (copy_only_) {
    const NodeDesc& d = m.nodes[0];
    const size_t bytes = shapes_[d.outputs[0]].numel() * datatype_size(m.values[d.outputs[0]].datatype);
    if (bytes != 0 && data[d.outputs[0]] != data[d.inputs[0]]) {
      std::memmove(data[d.outputs[0]], data[d.inputs[0]], bytes);
    }
    return Error::Ok;
  }
  for (uint32_t s = 0; s < p.num_stages; ++s) {
    const Stage& st = p.stages[s];
    if (winograd_[s] != nullptr) {
      EMBER_TRY(winograd_[s]->run(data));
      continue;
    }
    if (st.runner == NodeRunner::Grouped16 && runtimes_[s] == nullptr) {
      EMBER_TRY(run_grouped16(m, st.first_node, shapes_, data));
      continue;
    }
    if (st.runner == NodeRunner::FewRows && runtimes_[s] == nullptr) {
      EMBER_TRY(run_few_rows(m, st.first_node, shapes_, data));
      continue;
    }
    void** bound = bound_ + bound_offset_[s];
    bool same_pointers = true;
    for (uint32_t k = 0; k < st.num_externals; ++k) {
      ext[k] = xnn_external_value{st.externals[k], data[st.externals[k]]};
      same_pointers = same_pointers && bound[k] != nullptr && bound[k] == ext[k].data;
    }
    xnn_status status = xnn_status_success;
    if (!same_pointers) {
      status = xnn_setup_runtime_v2(runtimes_[s], st.num_externals, ext);
      for (uint32_t k = 0; k < st.num_externals; ++k) {
        bound[k] = status == xnn_status_success ? ext[k].data : nullptr;
      }
    }
    if (status == xnn_status_success) status = xnn_invoke_runtime(runtimes_[s]);
    if (status != xnn_status_success) {
      return fail(Error::Internal, "XNNPACK: running nodes %u..%u failed with %s", st.first_node,
                  st.end_node - 1, xnn_status_name(status));
    }
  }
  return Error::Ok;
}

}  // namespace ember::backends::xnnpack
