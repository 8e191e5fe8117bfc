// Shared helpers of the dynamic-shape tests: lower a .pt2 fixture with a named recipe
// ("portable" or "xnnpack"), a backend registry with XnnpackBackend, reading a
// reference tensor from the upstream corpus, and building inputs of a given shape.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "aot/recipe/export_session.h"
#include "aot/ir/host_tensor.h"
#include "aot/recipe/run_method.h"
#include "runtime/backend/backend_registry.h"
#include "tests/e2e/fixture_corpus.h"

namespace ember::testing {

// Lowers `pt2` with `recipe` (builtin recipes plus "xnnpack").
aot::Result<std::vector<uint8_t>> lower_pt2(const std::string& pt2, const std::string& recipe);

// A process-wide registry holding XnnpackBackend.
const runtime::BackendRegistry& xnnpack_backends();

// The committed fixture with this exact id ("mlp_dynamic_batch.core_aten.torch2_6"); false if absent.
bool find_fixture(const std::string& id, Fixture* out);

// A float tensor of `sizes` whose element k is (k % 13) * 0.25 - 1.
aot::HostTensor float_tensor(const std::vector<int64_t>& sizes);

// A raw little-endian float32 file as a HostTensor of `sizes`; false if the size differs.
bool read_float_file(const std::string& path, const std::vector<int64_t>& sizes, aot::HostTensor* out);

// Lowers the committed fixture `id` with `recipe` and loads it on Ember's runtime
// (portable kernels + XnnpackBackend); null (after a test failure) if that fails,
// or if the fixture is absent.
std::unique_ptr<aot::PteRunner> load_lowered(const std::string& id, const std::string& recipe);

}  // namespace ember::testing
