// libFuzzer target for XnnpackBackend payloads (XH00 header + XN01 XNNGraph FlatBuffer +
// constant region, or a legacy bare FlatBuffer): arbitrary bytes go through
// XnnpackBackend::init (graph validation, constant resolution from the blob and from the
// seeds' named data, stage partition, XNNPACK subgraph definition and runtime creation);
// when init succeeds, execute runs once on float tensors of the serialized external shapes
// (bounded) and the handle is destroyed. Any crash, leak, timeout or sanitizer report is a
// bug: a bad payload must produce a named error. xnnpack_blob_fuzz_test drives the same
// entry point deterministically (seeds + mutations) in the ordinary test suite.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "backends/xnnpack/runtime/test_graphs.h"
#include "backends/xnnpack/runtime/xnnpack_executor.h"
#include "backends/xnnpack/runtime/xnnpack_backend.h"
#include "runtime/platform/log.h"
#include "tests/fuzz/xnnpack_seeds.h"

namespace {

using ember::backends::xnnpack::backend_instance;
using ember::backends::xnnpack::kInvalidId;
using ember::backends::xnnpack::XnnpackExecutor;
using ember::backends::xnnpack::testing::HeapTensor;

constexpr size_t kMaxRunElements = 1 << 20;  // all externals together
alignas(16) uint8_t g_arena[1 << 22];

void run(ember::runtime::DelegateHandle* handle) {
  const auto& model = static_cast<XnnpackExecutor*>(handle)->model();
  std::vector<std::unique_ptr<HeapTensor>> tensors(model.num_externs);
  size_t total = 0;
  for (uint32_t v = 0; v < model.num_values; ++v) {
    const auto& info = model.values[v];
    if (!info.defined || info.external_id == kInvalidId || info.external_id >= model.num_externs) continue;
    std::vector<int32_t> sizes;
    size_t numel = 1, nonzero = 1;  // the product of nonzero dims bounds the int32 strides
    for (uint32_t d = 0; d < info.rank; ++d) {
      if (info.dims[d] > kMaxRunElements) return;
      sizes.push_back(static_cast<int32_t>(info.dims[d]));
      numel *= info.dims[d];
      nonzero *= info.dims[d] == 0 ? 1 : info.dims[d];
      if (nonzero > kMaxRunElements) return;
    }
    total += numel;
    if (total > kMaxRunElements) return;
    std::vector<float> values(numel);
    for (size_t i = 0; i < numel; ++i) values[i] = 0.25f * float(int(i % 7) - 3);
    tensors[info.external_id] = std::make_unique<HeapTensor>(std::move(sizes), std::move(values));
  }
  std::vector<ember::runtime::EValue*> args;
  for (auto& t : tensors) {
    if (t == nullptr) return;  // an external id without a value: init should have refused it
    args.push_back(&t->value);
  }
  ember::runtime::BackendExecutionContext ctx(nullptr, "forward", nullptr);
  (void)backend_instance().execute(ctx, handle, {args.data(), args.size()});
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static bool quiet = [] {
    ember::runtime::set_min_log_level(ember::runtime::LogLevel::Fatal);
    return true;
  }();
  (void)quiet;
  // A heap copy: the fuzzer's buffer is exactly `size` bytes, so ASan sees overreads.
  std::vector<uint8_t> copy(data, data + size);
  ember::runtime::MemoryAllocator allocator(g_arena, sizeof(g_arena));
  ember::runtime::BackendInitContext ctx(&allocator, "forward", &ember::testing::xnnpack_seed_named_data());
  ember::runtime::FreeableBuffer buffer(copy.data(), copy.size());
  auto handle = backend_instance().init(ctx, &buffer, {});
  if (!handle.ok()) return 0;
  run(handle.get());
  backend_instance().destroy(handle.get());
  return 0;
}
