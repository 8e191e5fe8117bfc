// write_bundled_program: what it writes is what the runtime's reader reads back (kinds,
// dtypes, sizes, data, the program bytes, 16/32 alignment in the file), and its checks
// name the bad value.
#include "aot/emit/bundled_program_writer.h"

#include <gtest/gtest.h>

#include <cstring>

#include "runtime/bundled/bundled_program.h"
#include "runtime/core/diagnostics.h"

namespace ember::aot {
namespace {

std::vector<uint8_t> fake_pte() {
  std::vector<uint8_t> pte(100, 0xAB);
  std::memcpy(pte.data() + 4, "ET12", 4);
  return pte;
}

BundledIoValue float_tensor(std::vector<int32_t> sizes, std::vector<float> values) {
  BundledIoValue v;
  v.dtype = runtime::ScalarType::Float;
  v.sizes = std::move(sizes);
  v.data.resize(values.size() * 4);
  std::memcpy(v.data.data(), values.data(), v.data.size());
  return v;
}

TEST(BundledProgramWriter, ReadBackByTheRuntimeReader) {
  BundledIoValue i64;
  i64.kind = BundledIoValue::Kind::Int;
  i64.int_value = -7;
  BundledIoValue dbl;
  dbl.kind = BundledIoValue::Kind::Double;
  dbl.double_value = 2.5;
  BundledIoValue flag;
  flag.kind = BundledIoValue::Kind::Bool;
  flag.bool_value = true;
  BundledTestSuite suite{"forward",
                         {{{float_tensor({2, 3}, {1, 2, 3, 4, 5, 6}), i64, dbl, flag},
                           {float_tensor({3}, {0.5f, -1, 8})}}}};
  BundledTestSuite other{"other", {}};
  const std::vector<uint8_t> pte = fake_pte();
  auto bytes = write_bundled_program(pte, {suite, other});
  ASSERT_TRUE(bytes.ok()) << format_error(bytes.error());
  EXPECT_EQ(std::memcmp(bytes->data() + 4, "BP08", 4), 0);
  auto b = runtime::BundledProgram::open(bytes->data(), bytes->size());
  ASSERT_TRUE(b.ok()) << runtime::last_error_message();
  EXPECT_EQ(b->version(), 2u);
  ASSERT_EQ(b->program().size(), pte.size());
  EXPECT_EQ(std::memcmp(b->program().data(), pte.data(), pte.size()), 0);
  EXPECT_EQ((b->program().data() - bytes->data()) % 32, 0) << "program not 32-aligned in the file";
  ASSERT_EQ(b->num_suites(), 2u);
  EXPECT_STREQ(b->method_name(1), "other");
  EXPECT_EQ(b->num_cases(1), 0u);
  ASSERT_EQ(b->num_cases(0), 1u);
  ASSERT_EQ(b->num_inputs(0, 0), 4u);
  const runtime::BundledValue t = b->input(0, 0, 0);
  EXPECT_EQ(t.kind, runtime::BundledValueKind::Tensor);
  EXPECT_EQ(t.dtype, runtime::ScalarType::Float);
  ASSERT_EQ(t.sizes.size(), 2u);
  EXPECT_EQ(t.sizes[1], 3);
  ASSERT_EQ(t.dim_order.size(), 2u);  // written as the contiguous order
  EXPECT_EQ(t.dim_order[1], 1);
  EXPECT_EQ((t.data.data() - bytes->data()) % 16, 0) << "tensor data not 16-aligned in the file";
  float last;
  std::memcpy(&last, t.data.data() + 20, 4);
  EXPECT_EQ(last, 6.0f);
  EXPECT_EQ(b->input(0, 0, 1).int_value, -7);
  EXPECT_EQ(b->input(0, 0, 2).double_value, 2.5);
  EXPECT_TRUE(b->input(0, 0, 3).bool_value);
  ASSERT_EQ(b->num_expected_outputs(0, 0), 1u);
  EXPECT_EQ(runtime::bundled_numel(b->expected_output(0, 0, 0)), 3u);
}

TEST(BundledProgramWriter, RefusesBadInput) {
  BundledTestSuite suite{"forward", {{{float_tensor({2, 3}, {1, 2, 3})}, {}}}};
  auto r = write_bundled_program(fake_pte(), {suite});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), Error::InvalidArgument);
  EXPECT_NE(format_error(r.error()).find(
                "method 'forward' case 0 input 0: float32 tensor of 6 elements needs 24 "
                "bytes, got 12"),
            std::string::npos)
      << format_error(r.error());
  std::vector<uint8_t> not_pte = fake_pte();
  not_pte[4] = 'X';
  EXPECT_FALSE(write_bundled_program(not_pte, {BundledTestSuite{"forward", {}}}).ok());
  EXPECT_FALSE(write_bundled_program(fake_pte(), {}).ok());
  EXPECT_FALSE(
      write_bundled_program(fake_pte(), {BundledTestSuite{"f", {}}, BundledTestSuite{"f", {}}})
          .ok());
}

}  // namespace
}  // namespace ember::aot
