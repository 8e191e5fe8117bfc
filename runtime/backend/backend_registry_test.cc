// Tests for BackendRegistry: explicit registration, duplicates, capacity, lookup.
#include "runtime/backend/backend_registry.h"

#include <gtest/gtest.h>

#include <string>

namespace ember::runtime {
namespace {

class NullBackend final : public BackendInterface {
 public:
  bool is_available() const override { return true; }
  Result<DelegateHandle*> init(BackendInitContext&, FreeableBuffer*,
                               Span<const CompileSpec>) const override {
    return Error::NotImplemented;
  }
  Error execute(BackendExecutionContext&, DelegateHandle*, Span<EValue*>) const override {
    return Error::NotImplemented;
  }
};

TEST(BackendRegistryTest, RegistersAndFinds) {
  BackendRegistry registry;
  NullBackend a, b;
  ASSERT_EQ(registry.register_backend("A", &a), Error::Ok);
  ASSERT_EQ(registry.register_backend("B", &b), Error::Ok);
  EXPECT_EQ(registry.size(), 2u);
  EXPECT_EQ(*registry.find("B"), &b);
  EXPECT_EQ(registry.find("C").error(), Error::NotFound);
  EXPECT_STREQ(registry.name_at(0), "A");
  char names[64];
  EXPECT_STREQ(registry.describe_names(names, sizeof(names)), "A, B");
}

TEST(BackendRegistryTest, DuplicateIsAnError) {
  BackendRegistry registry;
  NullBackend a;
  ASSERT_EQ(registry.register_backend("A", &a), Error::Ok);
  EXPECT_EQ(registry.register_backend("A", &a), Error::RegistrationAlreadyRegistered);
}

TEST(BackendRegistryTest, FullIsOutOfResources) {
  BackendRegistry registry;
  NullBackend a;
  static std::string names[BackendRegistry::kMaxBackends + 1];
  for (size_t i = 0; i < BackendRegistry::kMaxBackends; ++i) {
    names[i] = "B" + std::to_string(i);
    ASSERT_EQ(registry.register_backend(names[i].c_str(), &a), Error::Ok);
  }
  EXPECT_EQ(registry.register_backend("extra", &a), Error::OutOfResources);
}

TEST(FreeableBufferTest, FreesOnceAndMoves) {
  int calls = 0;
  auto free_fn = [](void* ctx, void*, size_t) { ++*static_cast<int*>(ctx); };
  char bytes[4];
  {
    FreeableBuffer a(bytes, 4, free_fn, &calls);
    FreeableBuffer b(std::move(a));
    EXPECT_EQ(a.data(), nullptr);
    EXPECT_EQ(b.size(), 4u);
    b.free();
    b.free();
    EXPECT_EQ(calls, 1);
  }
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace ember::runtime
