// XnnpackExecutor: load-time validation and per-call binding; see xnnpack_executor.h.
#include "backends/xnnpack/runtime/xnnpack_executor.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <mutex>
#include <new>

#include "backends/xnnpack/runtime/blocked_conv.h"
#include "backends/xnnpack/runtime/paired_conv.h"
#include "backends/xnnpack/runtime/winograd_stage.h"
#include "backends/xnnpack/runtime/few_rows_stage.h"
#include "backends/xnnpack/runtime/grouped16_stage.h"
#include "runtime/core/diagnostics.h"

namespace ember::backends::xnnpack {

using runtime::Error;
using runtime::fail;
using runtime::ScalarType;

namespace {

ScalarType scalar_type_of(fb_xnnpack::XNNDatatype t) {
  using fb_xnnpack::XNNDatatype;
  switch (t) {
    case XNNDatatype::xnn_datatype_fp16: return ScalarType::Half;
    case XNNDatatype::xnn_datatype_qint8: case XNNDatatype::xnn_datatype_qcint8: return ScalarType::Char;
    case XNNDatatype::xnn_datatype_quint8: return ScalarType::Byte;
    case XNNDatatype::xnn_datatype_qint32: case XNNDatatype::xnn_datatype_qcint32:
    case XNNDatatype::xnn_datatype_int32: return ScalarType::Int;
    case XNNDatatype::xnn_datatype_bf16: return ScalarType::BFloat16;
    default: return ScalarType::Float;
  }
}

// Once the first plan has packed them, the raw bytes of the weights XNNPACK packs (filters of
// fully-connected and convolution nodes) are read again only if a later plan misses the
// packed-weights cache, which a plan of the same graph does not. Their whole pages are handed
// back to the kernel with MADV_PAGEOUT: a file mapping's clean pages are dropped (a later read
// faults them back from the file), anonymous memory is swapped or kept; the bytes stay valid
// either way, so this is advice, never a free. Peak RSS then holds the packed copy, not both.
void page_out_packed_sources(const GraphModel& m) {
#ifdef MADV_PAGEOUT
  const long page_size = sysconf(_SC_PAGESIZE);
  if (page_size <= 0) return;
  const uintptr_t page = uintptr_t(page_size);
  for (uint32_t i = 0; i < m.num_nodes; ++i) {
    const NodeDesc& d = m.nodes[i];
    using fb_xnnpack::XNodeUnion;
    const bool packs = d.type == XNodeUnion::XNNFullyConnected || d.type == XNodeUnion::XNNConv2d ||
                       d.type == XNodeUnion::XNNDepthwiseConv2d ||
                       d.type == XNodeUnion::XNNConvTranspose2d;
    if (!packs || d.num_inputs < 2 || d.inputs[1] >= m.num_values) continue;
    const ValueInfo& v = m.values[d.inputs[1]];
    if (v.data == nullptr) continue;
    const uintptr_t begin = (uintptr_t(v.data) + page - 1) / page * page;
    const uintptr_t end = (uintptr_t(v.data) + v.data_size) / page * page;
    if (end > begin) (void)madvise(reinterpret_cast<void*>(begin), end - begin, MADV_PAGEOUT);
  }
#else
  (void)m;
#endif
}

}  // namespace

XnnpackExecutor::~XnnpackExecutor() {
  {
    std::unique_lock<std::mutex> lock;  // deleting a runtime edits its workspace's user list
    if (workspace_ != nullptr) lock = std::unique_lock<std::mutex>(workspace_->mutex());
    for (ShapePlan*& p : plans_) {
      delete p;
      p = nullptr;
    }
  }
  if (workspace_ != nullptr) workspace_->release();
  release_graph(&model_);
}

size_t XnnpackExecutor::num_cached_plans() const {
  size_t n = 0;
  for (const ShapePlan* p : plans_) n += p != nullptr;
  return n;
}

const ShapePlan* XnnpackExecutor::latest_plan() const {
  const ShapePlan* latest = nullptr;
  for (const ShapePlan* p : plans_) {
    if (p != nullptr && (latest == nullptr || p->last_used > latest->last_used)) latest = p;
  }
  return latest;
}

uint32_t XnnpackExecutor::num_parallel_stages() const {
  const ShapePlan* latest = latest_plan();
  return latest == nullptr ? 0 : latest->num_parallel_stages();
}

Error XnnpackExecutor::init(const void* blob, size_t size, const runtime::NamedDataMap* named_data,
                        runtime::MemoryAllocator* allocator, pthreadpool_t pool,
                        uint64_t min_parallel_work, bool winograd) {
  pool_ = pool;
  min_parallel_work_ = min_parallel_work;
  EMBER_TRY(read_graph(blob, size, named_data, allocator, &model_));
  // Single-threaded delegate stages only for a delegate without a multi-thread pool (at two
  // threads XNNPACK's split of these convolutions wins, and extra stages cost).
  const bool one_thread = pool == nullptr || pthreadpool_get_threads_count(pool) <= 1;
  // Before the others: they set runners too.
  EMBER_TRY(prepare_winograd_convs(&model_, allocator, winograd, !one_thread));
  EMBER_TRY(prepare_grouped16_convs(&model_, allocator, one_thread));  // before: it sets runners
  EMBER_TRY(prepare_few_rows_convs(&model_, allocator, one_thread));
  EMBER_TRY(build_partition(model_, allocator, &partition_));
  EMBER_TRY(prepare_paired_convs(&model_, allocator));
  EMBER_TRY(prepare_blocked_convs(&model_, allocator));
  size_t constant_bytes = 0;  // a hint for where the packed weights go (packed_weights_cache.h)
  for (uint32_t v = 0; v < model_.num_values; ++v) {
    if (model_.values[v].data != nullptr) constant_bytes += model_.values[v].data_size;
  }
  packed_weights_.expect_bytes(constant_bytes);
  const size_t nv = model_.num_values == 0 ? 1 : model_.num_values;
  input_shapes_ = allocator->allocate_list<Shape>(model_.num_externs == 0 ? 1 : model_.num_externs);
  data_ = allocator->allocate_list<void*>(nv);
  ext_ = allocator->allocate_list<xnn_external_value>(nv);
  if (!input_shapes_ || !data_ || !ext_) {
    return fail(Error::MemoryAllocationFailed, "XNNPACK: no memory for %u value bindings",
                model_.num_values);
  }
  for (uint32_t e = 0; e < model_.num_externs; ++e) {
    new (&input_shapes_[e]) Shape(declared_shape(model_.values[partition_.extern_value[e]]));
  }
  // The plan for the serialized shapes: makes every unsupported node fail now and packs the
  // weights. It is then dropped: its activations are sized by the bounds (a decoder's whole
  // context), runs build plans for their own shapes, and the packed weights stay in the cache.
  // It has a workspace of its own, freed with it: the shared one never shrinks, and would
  // otherwise keep the bounds' activations of the largest stage for the method's lifetime.
  auto plan = plan_for_inputs(nullptr);
  if (!plan.ok()) return plan.error();
  for (ShapePlan*& p : plans_) {
    delete p;
    p = nullptr;
  }
  page_out_packed_sources(model_);
  packed_weights_.release_unused_slab_tails();
  EMBER_ASSIGN_OR_RETURN(workspace_, MethodWorkspace::acquire(allocator));
  return Error::Ok;
}

runtime::Result<ShapePlan*> XnnpackExecutor::plan_for_inputs(xnn_workspace_t workspace) {
  ++tick_;
  size_t victim = 0;
  for (size_t i = 0; i < kMaxCachedPlans; ++i) {
    ShapePlan* p = plans_[i];
    if (p != nullptr && p->matches(model_, partition_, input_shapes_)) {
      p->last_used = tick_;
      return p;
    }
    if (p == nullptr || (plans_[victim] != nullptr && p->last_used < plans_[victim]->last_used)) {
      victim = i;
    }
  }
  ShapePlan* plan = new (std::nothrow) ShapePlan();
  if (plan == nullptr) return fail(Error::DelegateMemoryAllocationFailed, "XNNPACK: no memory for a plan");
  const Error e = plan->build(model_, partition_, input_shapes_, pool_, min_parallel_work_,
                              &packed_weights_, workspace);
  if (e != Error::Ok) {
    delete plan;
    return e;
  }
  delete plans_[victim];
  plans_[victim] = plan;
  plan->last_used = tick_;
  return plan;
}

Error XnnpackExecutor::read_input_shapes(runtime::Span<runtime::EValue*> args) {
  if (args.size() != model_.num_externs) {
    return fail(Error::InvalidArgument, "XNNPACK delegate: %zu arguments, the graph has %u "
                "external values (inputs then outputs)", args.size(), model_.num_externs);
  }
  for (uint32_t e = 0; e < model_.num_externs; ++e) {
    const ValueInfo& v = model_.values[partition_.extern_value[e]];
    if (args[e] == nullptr || !args[e]->is_tensor()) {
      return fail(Error::InvalidType, "XNNPACK delegate: argument %u is %s, expected a Tensor", e,
                  args[e] == nullptr ? "null" : runtime::tag_name(args[e]->tag()));
    }
    const runtime::Tensor& t = args[e]->to_tensor();
    // A tensor whose rank differs from the graph's (upstream passes a 0-D
    // constant for a [1] value) is accepted when the element counts agree; it
    // then has the graph's shape.
    const Shape declared = declared_shape(v);
    const bool same_rank = t.dim() == v.rank;
    if (t.scalar_type() != scalar_type_of(v.datatype) ||
        (!same_rank && t.numel() != declared.numel())) {
      char got[96];
      return fail(Error::InvalidArgument, "XNNPACK delegate: argument %u is %s, expected %s of rank %u",
                  e, runtime::describe(t, got, sizeof(got)),
                  runtime::scalar_type_name(scalar_type_of(v.datatype)), v.rank);
    }
    if (!is_graph_input(v)) continue;
    if (t.const_data_ptr() == nullptr && t.nbytes() > 0) {
      return fail(Error::InvalidArgument, "XNNPACK delegate: input argument %u has no data", e);
    }
    Shape& s = input_shapes_[e];
    if (!same_rank) {
      s = declared;
      continue;
    }
    s.rank = v.rank;
    for (uint32_t i = 0; i < v.rank; ++i) {
      s.dims[i] = size_t(t.size(t.dim_order()[i]));  // physical order, as XNNPACK sees it
      if (s.dims[i] > v.dims[i]) {
        return fail(Error::InvalidArgument,
                    "XNNPACK delegate: input %u dim %u is %zu, larger than the graph's bound %zu",
                    e, i, s.dims[i], v.dims[i]);
      }
    }
  }
  return Error::Ok;
}

Error XnnpackExecutor::bind(runtime::Span<runtime::EValue*> args, const ShapePlan& plan) {
  void* scratch = workspace_->scratch(plan.scratch_bytes());
  if (scratch == nullptr) {
    return fail(Error::DelegateMemoryAllocationFailed, "XNNPACK: no memory for %zu bytes of scratch",
                plan.scratch_bytes());
  }
  for (uint32_t v = 0; v < model_.num_values; ++v) {
    data_[v] = model_.values[v].data != nullptr ? const_cast<void*>(model_.values[v].data)
                                                : plan.buffer(v, scratch);
  }
  for (uint32_t e = 0; e < model_.num_externs; ++e) {
    const uint32_t v = partition_.extern_value[e];
    runtime::Tensor& t = args[e]->to_tensor();
    const Shape& s = plan.shape(v);
    if (is_graph_input(model_.values[v])) {
      if (data_[v] != nullptr) {  // padded copy for XNNPACK's over-reads
        std::memcpy(data_[v], t.const_data_ptr(), t.nbytes());
      } else {
        data_[v] = t.mutable_data_ptr();
      }
      continue;
    }
    if (t.dim() == s.rank) {
      runtime::SizesType sizes[kMaxDims];
      for (uint32_t i = 0; i < s.rank; ++i) {
        sizes[t.dim_order()[i]] = static_cast<runtime::SizesType>(s.dims[i]);
      }
      const Error re = t.resize(runtime::Span<const runtime::SizesType>(sizes, s.rank));
      if (re != Error::Ok) {
        return runtime::annotate(re, "XNNPACK delegate: resizing output argument %u", e);
      }
    } else if (t.numel() != s.numel()) {
      return fail(Error::InvalidArgument,
                  "XNNPACK delegate: output argument %u has %zu elements, the graph computes %zu",
                  e, t.numel(), s.numel());
    }
    data_[v] = t.mutable_data_ptr();
    if (data_[v] == nullptr && t.nbytes() > 0) {
      return fail(Error::InvalidState, "XNNPACK delegate: output argument %u has no memory", e);
    }
  }
  return Error::Ok;
}

Error XnnpackExecutor::execute(runtime::Span<runtime::EValue*> args) {
  if (workspace_ == nullptr) return fail(Error::InvalidState, "XNNPACK delegate: not initialised");
  EMBER_TRY(read_input_shapes(args));
  // A new plan may grow the shared workspace, which moves the pointers of the method's other
  // runtimes; binding and running use it.
  std::lock_guard<std::mutex> lock(workspace_->mutex());
  ShapePlan* plan = nullptr;
  EMBER_ASSIGN_OR_RETURN(plan, plan_for_inputs(workspace_->get()));
  EMBER_TRY(bind(args, *plan));
  return plan->run(model_, partition_, data_, ext_);
}

}  // namespace ember::backends::xnnpack
