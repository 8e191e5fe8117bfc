#include "runtime/kernel/kernel_registry.h"

#include "runtime/kernel/register_kernel.h"

#include <gtest/gtest.h>

namespace ember::runtime {
namespace {

void add_one(KernelRuntimeContext&, Span<EValue*> args) {
  *args[1] = EValue(args[0]->to_int() + 1);
}
void fails(KernelRuntimeContext& context, Span<EValue*>) {
  context.fail(Error::InvalidArgument, "bad input %d", 7);
}

TEST(KernelRegistry, RegisterFindAndCall) {
  FixedKernelRegistry<4> registry;
  ASSERT_EQ(registry.register_kernel({"test::add_one", add_one}), Error::Ok);
  Result<OpFunction> fn = registry.find("test::add_one");
  ASSERT_TRUE(fn.ok());
  EValue in(int64_t{41}), out;
  EValue* args[] = {&in, &out};
  KernelRuntimeContext context;
  (*fn)(context, Span<EValue*>(args, 2));
  EXPECT_EQ(context.failure_state(), Error::Ok);
  EXPECT_EQ(out.to_int(), 42);
  EXPECT_EQ(registry.find("test::missing").error(), Error::OperatorMissing);
}

TEST(KernelRegistry, DuplicatesAndCapacityAreErrors) {
  FixedKernelRegistry<3> registry;
  ASSERT_EQ(registry.register_kernel({"a", add_one}), Error::Ok);
  EXPECT_EQ(registry.register_kernel({"a", fails}), Error::RegistrationAlreadyRegistered);
  const Kernel twice[] = {{"b", add_one}, {"b", add_one}};
  EXPECT_EQ(registry.register_kernels(twice), Error::RegistrationAlreadyRegistered);
  EXPECT_EQ(registry.size(), 1u);  // nothing from the bad span was added
  const Kernel three[] = {{"c", add_one}, {"d", add_one}, {"e", add_one}};
  EXPECT_EQ(registry.register_kernels(three), Error::RegistrationExceedingMaxKernels);
  EXPECT_EQ(registry.register_kernel({nullptr, add_one}), Error::InvalidArgument);
}

TEST(KernelRegistry, OneCallRegistersIntoTheDefaultRegistry) {
  const size_t before = default_kernel_registry().size();
  ASSERT_EQ(register_kernel("test::one_call.out", add_one), Error::Ok);
  EXPECT_EQ(default_kernel_registry().size(), before + 1);
  Result<OpFunction> fn = default_kernel_registry().find("test::one_call.out");
  ASSERT_TRUE(fn.ok());
  EXPECT_EQ(*fn, &add_one);
  EXPECT_EQ(register_kernel("test::one_call.out", fails), Error::RegistrationAlreadyRegistered);
  EXPECT_EQ(register_kernel("test::null.out", nullptr), Error::InvalidArgument);
}

TEST(KernelRuntimeContext, FailKeepsFirstErrorAndMessage) {
  KernelRuntimeContext context;
  fails(context, {});
  context.fail(Error::Internal);
  EXPECT_EQ(context.failure_state(), Error::InvalidArgument);
  EXPECT_STREQ(last_error_message(), "bad input 7");
}

TEST(KernelRuntimeContext, TempAllocation) {
  KernelRuntimeContext no_temp;
  EXPECT_EQ(no_temp.allocate_temp(8).error(), Error::NotFound);
  alignas(16) uint8_t buffer[64];
  MemoryAllocator temp(buffer, sizeof(buffer));
  KernelRuntimeContext context(&temp);
  EXPECT_TRUE(context.allocate_temp(32).ok());
  EXPECT_EQ(context.allocate_temp(64).error(), Error::MemoryAllocationFailed);
}

}  // namespace
}  // namespace ember::runtime
