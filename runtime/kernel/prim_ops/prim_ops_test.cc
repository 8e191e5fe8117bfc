// Tests for the prim kernels with hand-computed expectations (Python semantics
// for floordiv/mod, as torch's sym ints use).
#include "runtime/kernel/prim_ops/prim_ops.h"

#include <gtest/gtest.h>

namespace ember::runtime {
namespace {

class PrimOpsTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(register_prim_ops(registry_), Error::Ok); }

  Error call(const char* name, EValue* a, size_t n) {
    EValue* args[8];
    for (size_t i = 0; i < n; ++i) args[i] = &a[i];
    Result<OpFunction> fn = registry_.find(name);
    EXPECT_TRUE(fn.ok()) << name;
    KernelRuntimeContext ctx;
    (*fn)(ctx, Span<EValue*>(args, n));
    return ctx.failure_state();
  }

  FixedKernelRegistry<64> registry_;
};

TEST_F(PrimOpsTest, RegistersAll28) { EXPECT_EQ(registry_.size(), 28u); }

TEST_F(PrimOpsTest, DuplicateRegistrationFails) {
  EXPECT_EQ(register_prim_ops(registry_), Error::RegistrationAlreadyRegistered);
}

TEST_F(PrimOpsTest, IntArithmeticKeepsSlotKind) {
  EValue a[3] = {EValue(int64_t(7)), EValue(int64_t(-2)), EValue(int64_t(0))};
  ASSERT_EQ(call("executorch_prim::floordiv.int", a, 3), Error::Ok);
  EXPECT_EQ(a[2].to_int(), -4);  // floor(7 / -2)
  ASSERT_EQ(call("executorch_prim::mod.int", a, 3), Error::Ok);
  EXPECT_EQ(a[2].to_int(), -1);  // 7 % -2 in Python
  ASSERT_EQ(call("executorch_prim::mul.Scalar", a, 3), Error::Ok);
  EXPECT_EQ(a[2].to_int(), -14);
  a[1] = EValue(2.5);
  ASSERT_EQ(call("executorch_prim::add.Scalar", a, 3), Error::Ok);
  EXPECT_TRUE(a[2].is_int());  // slot stays Int: 9.5 truncated
  EXPECT_EQ(a[2].to_int(), 9);
}

TEST_F(PrimOpsTest, DivisionByZeroFails) {
  EValue a[3] = {EValue(int64_t(1)), EValue(int64_t(0)), EValue(int64_t(0))};
  EXPECT_EQ(call("executorch_prim::floordiv.int", a, 3), Error::InvalidArgument);
}

TEST_F(PrimOpsTest, ComparisonsAndTernary) {
  EValue a[3] = {EValue(int64_t(3)), EValue(2.0), EValue(false)};
  ASSERT_EQ(call("executorch_prim::gt.Scalar", a, 3), Error::Ok);
  EXPECT_TRUE(a[2].to_bool());
  EValue t[4] = {EValue(false), EValue(int64_t(5)), EValue(int64_t(6)), EValue(int64_t(0))};
  ASSERT_EQ(call("executorch_prim::sym_ite.Scalar", t, 4), Error::Ok);
  EXPECT_EQ(t[3].to_int(), 6);
}

TEST_F(PrimOpsTest, WrongKindsFailWithoutAborting) {
  float data[2] = {1, 2};
  int32_t sizes[1] = {2};
  uint8_t order[1] = {0};
  int32_t strides[1];
  Tensor tensor(ScalarType::Float, 1, sizes, order, strides, data);
  EValue a[3] = {EValue(&tensor), EValue(int64_t(1)), EValue(int64_t(0))};
  EXPECT_EQ(call("executorch_prim::add.Scalar", a, 3), Error::InvalidType);
  EXPECT_EQ(call("executorch_prim::add.Scalar", a, 2), Error::InvalidProgram);
}

TEST_F(PrimOpsTest, SymSizeAndNumel) {
  float data[6] = {};
  int32_t sizes[2] = {2, 3};
  uint8_t order[2] = {0, 1};
  int32_t strides[2];
  Tensor tensor(ScalarType::Float, 2, sizes, order, strides, data);
  EValue a[3] = {EValue(&tensor), EValue(int64_t(-1)), EValue(int64_t(0))};
  ASSERT_EQ(call("aten::sym_size.int", a, 3), Error::Ok);
  EXPECT_EQ(a[2].to_int(), 3);
  EValue n[2] = {EValue(&tensor), EValue(int64_t(0))};
  ASSERT_EQ(call("aten::sym_numel", n, 2), Error::Ok);
  EXPECT_EQ(n[1].to_int(), 6);
}

TEST_F(PrimOpsTest, EtViewAliasesWithNewShape) {
  float data[6] = {0, 1, 2, 3, 4, 5};
  int32_t in_sizes[2] = {2, 3}, out_sizes[2] = {6, 1};
  uint8_t order[2] = {0, 1};
  int32_t s1[2], s2[2];
  Tensor self(ScalarType::Float, 2, in_sizes, order, s1, data);
  Tensor out(ScalarType::Float, 2, out_sizes, order, s2, nullptr, ShapeDynamism::DynamicBound);
  EValue ints[2] = {EValue(int64_t(3)), EValue(int64_t(-1))};
  EValue* items[2] = {&ints[0], &ints[1]};
  int64_t scratch[2];
  EValue a[3] = {EValue(&self), EValue(BoxedIntList(items, scratch, 2)), EValue(&out)};
  ASSERT_EQ(call("executorch_prim::et_view.default", a, 3), Error::Ok);
  EXPECT_EQ(out.size(0), 3);
  EXPECT_EQ(out.size(1), 2);
  EXPECT_EQ(out.const_data_ptr(), data);
}

TEST_F(PrimOpsTest, EtCopyIndexGrowsFirstDim) {
  float src[2] = {7, 8};
  float dst[6] = {};
  int32_t from_sizes[1] = {2}, to_sizes[2] = {3, 2};
  uint8_t o1[1] = {0}, o2[2] = {0, 1};
  int32_t s1[1], s2[2];
  Tensor from(ScalarType::Float, 1, from_sizes, o1, s1, src);
  Tensor to(ScalarType::Float, 2, to_sizes, o2, s2, dst, ShapeDynamism::DynamicBound);
  ASSERT_EQ(to.resize(Span<const int32_t>((const int32_t[]){0, 2}, 2)), Error::Ok);
  EValue a[3] = {EValue(&to), EValue(&from), EValue(int64_t(1))};
  ASSERT_EQ(call("executorch_prim::et_copy_index.tensor", a, 3), Error::Ok);
  EXPECT_EQ(to.size(0), 2);
  EXPECT_EQ(dst[2], 7);
  EXPECT_EQ(dst[3], 8);
  // Row 0 again (the next run of a map loop): a dynamic copy_to shrinks to one row.
  EValue b[3] = {EValue(&to), EValue(&from), EValue(int64_t(0))};
  ASSERT_EQ(call("executorch_prim::et_copy_index.tensor", b, 3), Error::Ok);
  EXPECT_EQ(to.size(0), 1);
  EXPECT_EQ(dst[0], 7);
}

}  // namespace
}  // namespace ember::runtime
