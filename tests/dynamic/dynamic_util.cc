// Helpers of the dynamic-shape tests (see dynamic_util.h).
#include "tests/dynamic/dynamic_util.h"

#include <gtest/gtest.h>

#include <cstring>

#include "backends/xnnpack/aot/xnnpack_partitioner.h"
#include "backends/xnnpack/runtime/xnnpack_backend.h"
#include "tests/support/shared_fixtures.h"

namespace ember::testing {

aot::Result<std::vector<uint8_t>> lower_pt2(const std::string& pt2, const std::string& recipe) {
  aot::RecipeRegistry recipes;
  EMBER_TRY(aot::register_builtin_recipes(&recipes));
  EMBER_TRY(backends::xnnpack::register_xnnpack_recipe(&recipes));
  auto session = aot::ExportSession::create(recipes, recipe, pt2, {}, {});
  if (!session.ok()) return session.error();
  EMBER_TRY(session->run());
  return *session->pte();
}

const runtime::BackendRegistry& xnnpack_backends() {
  static runtime::BackendRegistry* registry = [] {
    auto* r = new runtime::BackendRegistry();
    (void)backends::xnnpack::register_backend(*r);
    return r;
  }();
  return *registry;
}

bool find_fixture(const std::string& id, Fixture* out) {
  for (Fixture& f : list_fixtures()) {
    if (f.id == id) {
      *out = std::move(f);
      return true;
    }
  }
  return false;
}

aot::HostTensor float_tensor(const std::vector<int64_t>& sizes) {
  aot::HostTensor t;
  t.sizes = sizes;
  std::vector<float> v(static_cast<size_t>(t.numel()));
  for (size_t k = 0; k < v.size(); ++k) v[k] = static_cast<float>(k % 13) * 0.25f - 1.0f;
  t.bytes.resize(v.size() * sizeof(float));
  if (!v.empty()) std::memcpy(t.bytes.data(), v.data(), t.bytes.size());
  return t;
}

bool read_float_file(const std::string& path, const std::vector<int64_t>& sizes, aot::HostTensor* out) {
  out->dtype = aot::ScalarType::Float;
  out->sizes = sizes;
  if (!read_file(path, &out->bytes)) return false;
  return static_cast<int64_t>(out->bytes.size()) == out->numel() * 4;
}

std::unique_ptr<aot::PteRunner> load_lowered(const std::string& id, const std::string& recipe) {
  Fixture f;
  if (!find_fixture(id, &f)) return nullptr;
  auto pte = lower_pt2(f.pt2, recipe);
  EXPECT_TRUE(pte.ok()) << ::ember::aot::format_error(pte.error());
  if (!pte.ok()) return nullptr;
  aot::RunOptions ro;
  ro.backends = &xnnpack_backends();
  auto runner = aot::PteRunner::load(*pte, ro);
  EXPECT_TRUE(runner.ok()) << ::ember::aot::format_error(runner.error());
  return runner.ok() ? std::move(runner.get()) : nullptr;
}

}  // namespace ember::testing
