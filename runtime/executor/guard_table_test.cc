// Input guard tables (runtime/executor/input_guards.h) on hand-built programs: the add
// program (out = a + b, float[2] DYNAMIC_BOUND inputs) plus a `__ember_guards__forward`
// method. A valid table is read and enforced (min in set_input, equality in execute);
// every malformed table (version, length, count, indices, kinds, value types) is a named
// error from load_method, never a crash; a table for another method or none at all
// changes nothing. Expected messages follow the encoding in input_guards.h.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runtime/core/diagnostics.h"
#include "runtime/executor/program.h"
#include "runtime/executor/testing/method_fixture.h"
#include "runtime/executor/testing/program_builder.h"
#include "runtime/executor/testing/test_kernels.h"
#include "runtime/loader/buffer_data_loader.h"

namespace ember::testing {
namespace {

using runtime::EValue;
using runtime::Error;
using runtime::ScalarType;
using runtime::Tensor;

// A constant method `name` whose outputs are Int values `ints`.
std::unique_ptr<fbs::ExecutionPlanT> int_method(const std::string& name, const std::vector<int64_t>& ints) {
  auto plan = std::make_unique<fbs::ExecutionPlanT>();
  plan->name = name;
  for (int64_t v : ints) {
    plan->values.push_back(make_int_value(v));
    plan->outputs.push_back(int32_t(plan->values.size() - 1));
  }
  plan->non_const_buffer_sizes = {0};
  return plan;
}

// out = a + b on float[2] inputs that are DYNAMIC_BOUND (the output too).
std::unique_ptr<fbs::ProgramT> dynamic_add_program() {
  auto program = make_add_program();
  for (int v : {0, 1, 3}) {
    program->execution_plan[0]->values[size_t(v)]->val.AsTensor()->shape_dynamism =
        fbs::TensorShapeDynamism::DYNAMIC_BOUND;
  }
  return program;
}

// [1, 2]: input 0 dim 0 >= 1; input 1 dim 0 == input 0 dim 0.
const std::vector<int64_t> kValid = {1, 2, 1, 0, 0, 1, 0, 2, 1, 0, 0, 0};

class GuardTableTest : public MethodFixture {
 protected:
  // Loads the add program with a guard method of `ints`.
  runtime::Result<runtime::Method> load_with_guards(const std::vector<int64_t>& ints,
                                                    const std::string& name = "__ember_guards__forward") {
    auto program = dynamic_add_program();
    program->execution_plan.push_back(int_method(name, ints));
    return load(*program);
  }

  // Expects load_method to fail with `error` and a message containing `part`.
  void expect_load_error(const std::vector<int64_t>& ints, Error error, const std::string& part) {
    auto method = load_with_guards(ints);
    ASSERT_FALSE(method.ok()) << "table accepted";
    EXPECT_EQ(method.error(), error);
    const std::string msg = runtime::last_error_message();
    EXPECT_NE(msg.find(part), std::string::npos) << msg;
    EXPECT_NE(msg.find("loading method 'forward'"), std::string::npos) << msg;
  }
};

// A float[n] tensor over `data`.
struct FloatInput {
  explicit FloatInput(int32_t n) : size{n}, tensor(ScalarType::Float, 1, &size, &order, &stride, data) {}
  int32_t size;
  uint8_t order = 0;
  int32_t stride = 1;
  float data[4] = {1, 2, 3, 4};
  Tensor tensor;
};

TEST_F(GuardTableTest, ValidTableIsReadAndEnforced) {
  auto method = load_with_guards(kValid);
  ASSERT_TRUE(method.ok()) << runtime::last_error_message();
  ASSERT_EQ(method->input_guards().size(), 2u);
  EXPECT_EQ(method->input_guards()[0].kind, runtime::InputGuardKind::MinSize);
  EXPECT_EQ(method->input_guards()[0].a, 1);
  EXPECT_EQ(method->input_guards()[1].kind, runtime::InputGuardKind::EqualSize);

  FloatInput empty(0), one(1), two(2);
  EXPECT_EQ(method->set_input(EValue(&empty.tensor), 0), Error::InvalidArgument);
  EXPECT_STREQ(runtime::last_error_message(),
               "input 0 of method 'forward': dim 0 is 0, allowed range [1, 2] (min from export range "
               "constraint)");
  FloatInput three(3);
  EXPECT_EQ(method->set_input(EValue(&three.tensor), 0), Error::InvalidArgument);
  EXPECT_STREQ(runtime::last_error_message(),
               "input 0 of method 'forward': dim 0 is 3, allowed range [1, 2] (DYNAMIC_BOUND upper bound)");

  ASSERT_EQ(method->set_input(EValue(&two.tensor), 0), Error::Ok);
  ASSERT_EQ(method->set_input(EValue(&one.tensor), 1), Error::Ok);  // no min on input 1
  EXPECT_EQ(method->execute(), Error::InvalidArgument);
  EXPECT_STREQ(runtime::last_error_message(),
               "input 1 of method 'forward': dim 0 is 1 but must equal input 0 dim 0 (2) (equality "
               "constraint from export)");

  ASSERT_EQ(method->set_input(EValue(&two.tensor), 1), Error::Ok);
  ASSERT_EQ(method->execute(), Error::Ok) << runtime::last_error_message();
  const Tensor& out = method->get_output(0).to_tensor();
  ASSERT_EQ(out.size(0), 2);
  EXPECT_EQ(out.const_data_ptr<float>()[0], 2.0f);  // 1 + 1
  EXPECT_EQ(out.const_data_ptr<float>()[1], 4.0f);  // 2 + 2
}

TEST_F(GuardTableTest, NoTableOrAnotherMethodsTableChangesNothing) {
  for (bool other : {false, true}) {
    auto program = dynamic_add_program();
    if (other) program->execution_plan.push_back(int_method("__ember_guards__other", {7}));
    auto method = load(*program);
    ASSERT_TRUE(method.ok()) << runtime::last_error_message();
    EXPECT_EQ(method->input_guards().size(), 0u);
    FloatInput empty(0);
    EXPECT_EQ(method->set_input(EValue(&empty.tensor), 0), Error::Ok);
  }
}

TEST_F(GuardTableTest, EmptyTableIsValid) {
  auto method = load_with_guards({1, 0});
  ASSERT_TRUE(method.ok()) << runtime::last_error_message();
  EXPECT_EQ(method->input_guards().size(), 0u);
}

TEST_F(GuardTableTest, WrongVersion) {
  expect_load_error({2, 0}, Error::InvalidProgram,
                    "guard table '__ember_guards__forward' has version 2, this runtime reads version 1");
}

TEST_F(GuardTableTest, TooShortForAHeader) {
  expect_load_error({1}, Error::InvalidProgram,
                    "guard table '__ember_guards__forward' is truncated: 1 value(s), need at least 2 "
                    "(version, count)");
}

TEST_F(GuardTableTest, TruncatedRecord) {
  expect_load_error({1, 1, 1, 0, 0, 1}, Error::InvalidProgram,
                    "guard table '__ember_guards__forward' has 6 values, 1 records need 7 (truncated)");
}

TEST_F(GuardTableTest, TrailingValues) {
  std::vector<int64_t> ints = kValid;
  ints.push_back(0);
  expect_load_error(ints, Error::InvalidProgram,
                    "guard table '__ember_guards__forward' has 13 values, 2 records need 12");
}

TEST_F(GuardTableTest, NegativeCount) {
  expect_load_error({1, -1}, Error::InvalidProgram,
                    "guard table '__ember_guards__forward' has -1 records, at most 32 are supported");
}

TEST_F(GuardTableTest, MoreRecordsThanTheCapacity) {
  std::vector<int64_t> ints = {1, 33};
  for (int r = 0; r < 33; ++r) ints.insert(ints.end(), {1, 0, 0, 1, 0});
  expect_load_error(ints, Error::OutOfResources,
                    "guard table '__ember_guards__forward' has 33 records, at most 32 are supported");
}

TEST_F(GuardTableTest, InputIndexOutOfRange) {
  expect_load_error({1, 1, 1, 5, 0, 1, 0}, Error::InvalidProgram,
                    "guard table '__ember_guards__forward' record 0: input 5 is not a tensor input (method "
                    "'forward' has 2 inputs)");
  expect_load_error({1, 1, 1, -1, 0, 1, 0}, Error::InvalidProgram, "record 0: input -1 is not a tensor input");
}

TEST_F(GuardTableTest, DimOutOfRange) {
  expect_load_error({1, 1, 1, 0, 3, 1, 0}, Error::InvalidProgram,
                    "guard table '__ember_guards__forward' record 0: input 0 has no dim 3 (rank 1)");
}

TEST_F(GuardTableTest, ReferenceInputOutOfRange) {
  expect_load_error({1, 1, 2, 1, 0, 9, 0}, Error::InvalidProgram,
                    "record 0: reference input 9 is not a tensor input");
  expect_load_error({1, 1, 2, 1, 0, 0, 4}, Error::InvalidProgram,
                    "record 0: reference input 0 has no dim 4 (rank 1)");
}

TEST_F(GuardTableTest, EqualityWithItself) {
  expect_load_error({1, 1, 2, 1, 0, 1, 0}, Error::InvalidProgram, "record 0: input 1 dim 0 equals itself");
}

TEST_F(GuardTableTest, MinAboveTheBound) {
  expect_load_error({1, 1, 1, 0, 0, 5, 0}, Error::InvalidProgram,
                    "record 0: minimum 5 for input 0 dim 0 is outside [0, 2] (the dim's upper bound)");
}

TEST_F(GuardTableTest, UnknownKind) {
  expect_load_error({1, 2, 1, 0, 0, 1, 0, 6, 0, 0, 0, 0}, Error::InvalidProgram,
                    "guard table '__ember_guards__forward' record 1: unknown kind 6 (known: 1 min, 2 equal, "
                    "3 derived, 4 its coefficients, 5 symbol bound)");
}

// Kind 5: value 3 (the output tensor) dim 0 is the data-dependent size u7, bounded by 2. It is
// read (diagnostics only: execution is unchanged); one naming no tensor dim is a load error.
TEST_F(GuardTableTest, SymbolBoundIsReadAndValidated) {
  auto method = load_with_guards({1, 1, 5, 3, 0, 7, 2});
  ASSERT_TRUE(method.ok()) << runtime::last_error_message();
  ASSERT_EQ(method->input_guards().size(), 1u);
  EXPECT_EQ(method->input_guards()[0].kind, runtime::InputGuardKind::SymbolBound);
  EXPECT_EQ(method->input_guards()[0].input, 3u);
  EXPECT_EQ(method->input_guards()[0].a, 7);
  EXPECT_EQ(method->input_guards()[0].b, 2);
  expect_load_error({1, 1, 5, 2, 0, 7, 2}, Error::InvalidProgram,
                    "guard table '__ember_guards__forward' record 0: symbol bound (value 2 dim 0, u7 <= 2) "
                    "does not name a dim of a tensor value of method 'forward'");
  expect_load_error({1, 1, 5, 3, 1, 7, 2}, Error::InvalidProgram, "record 0: symbol bound (value 3 dim 1");
  expect_load_error({1, 1, 5, 99, 0, 7, 2}, Error::InvalidProgram, "record 0: symbol bound (value 99 dim 0");
  expect_load_error({1, 1, 5, 3, 0, -1, 2}, Error::InvalidProgram, "record 0: symbol bound (value 3 dim 0, u-1");
}

// size(input 1, dim 0) == 2 * size(input 0, dim 0): a derived size (torch's 2*Dim).
TEST_F(GuardTableTest, DerivedSizeIsCheckedAtSetInputOnceBothAreSet) {
  auto method = load_with_guards({1, 2, 3, 1, 0, 0, 0, 4, 2, 0, 1, 0});
  ASSERT_TRUE(method.ok()) << runtime::last_error_message();
  ASSERT_EQ(method->input_guards().size(), 2u);
  EXPECT_EQ(method->input_guards()[0].kind, runtime::InputGuardKind::DerivedSize);
  EXPECT_EQ(method->input_guards()[0].mul, 2);
  FloatInput one(1), two(2);
  // Input 1 first: input 0 is not set yet, so nothing to compare against.
  ASSERT_EQ(method->set_input(EValue(&one.tensor), 1), Error::Ok) << runtime::last_error_message();
  EXPECT_EQ(method->set_input(EValue(&one.tensor), 0), Error::InvalidArgument);
  EXPECT_STREQ(runtime::last_error_message(),
               "input 1 of method 'forward': dim 0 is 1, but the export derives it as 2*s+0 with s = "
               "input 0 dim 0 = 1, i.e. 2 (derived size from export)");
  ASSERT_EQ(method->set_input(EValue(&two.tensor), 1), Error::Ok) << runtime::last_error_message();
  ASSERT_EQ(method->set_input(EValue(&one.tensor), 0), Error::Ok) << runtime::last_error_message();
}

// The symbol is no input dim: the size must be 2*s + 0 for some s >= 1.
TEST_F(GuardTableTest, DerivedSizeWithoutReferenceChecksMultipleAndMinimum) {
  auto method = load_with_guards({1, 2, 3, 1, 0, -1, 0, 4, 2, 0, 1, 0});
  ASSERT_TRUE(method.ok()) << runtime::last_error_message();
  FloatInput empty(0), one(1), two(2);
  EXPECT_EQ(method->set_input(EValue(&one.tensor), 1), Error::InvalidArgument);
  EXPECT_STREQ(runtime::last_error_message(),
               "input 1 of method 'forward': dim 0 is 1, but the export derives it as 2*s+0 with s >= 1 "
               "(derived size from export)");
  EXPECT_EQ(method->set_input(EValue(&empty.tensor), 1), Error::InvalidArgument);
  EXPECT_EQ(method->set_input(EValue(&two.tensor), 1), Error::Ok) << runtime::last_error_message();
}

TEST_F(GuardTableTest, DerivedSizeNeedsItsCoefficients) {
  expect_load_error({1, 1, 3, 1, 0, 0, 0}, Error::InvalidProgram,
                    "record 0: a derived size must be followed by its coefficients (kind 4)");
  expect_load_error({1, 2, 3, 1, 0, 0, 0, 1, 0, 0, 1, 0}, Error::InvalidProgram,
                    "record 0: a derived size must be followed by its coefficients (kind 4)");
  expect_load_error({1, 1, 4, 2, 0, 1, 0}, Error::InvalidProgram,
                    "record 0: coefficients (kind 4) without a derived size before them");
  expect_load_error({1, 2, 3, 1, 0, 0, 0, 4, 0, 0, 1, 0}, Error::InvalidProgram,
                    "record 1: derived size coefficients mul 0, add 0, min 1 are out of range");
}

TEST_F(GuardTableTest, NonIntOutput) {
  auto program = dynamic_add_program();
  auto guards = int_method("__ember_guards__forward", {1, 0});
  guards->values[1] = make_tensor_value({1}, 0, 0);
  program->execution_plan.push_back(std::move(guards));
  auto method = load(*program);
  ASSERT_FALSE(method.ok());
  EXPECT_EQ(method.error(), Error::InvalidProgram);
  EXPECT_NE(std::string(runtime::last_error_message())
                .find("guard table '__ember_guards__forward': output 1 (value 1) is not an Int value"),
            std::string::npos)
      << runtime::last_error_message();
}

TEST_F(GuardTableTest, OutputIndexOutOfRange) {
  auto program = dynamic_add_program();
  auto guards = int_method("__ember_guards__forward", {1, 0});
  guards->outputs[0] = 99;
  program->execution_plan.push_back(std::move(guards));
  auto method = load(*program);
  ASSERT_FALSE(method.ok());
  EXPECT_NE(std::string(runtime::last_error_message()).find("output 0 (value 99) is not an Int value"),
            std::string::npos)
      << runtime::last_error_message();
}

TEST_F(GuardTableTest, TableWithInputs) {
  auto program = dynamic_add_program();
  auto guards = int_method("__ember_guards__forward", {1, 0});
  guards->inputs = {0};
  program->execution_plan.push_back(std::move(guards));
  auto method = load(*program);
  ASSERT_FALSE(method.ok());
  EXPECT_NE(std::string(runtime::last_error_message())
                .find("guard table '__ember_guards__forward' takes 1 input(s), expected none"),
            std::string::npos)
      << runtime::last_error_message();
}

TEST(GuardMethodNameTest, Prefix) {
  EXPECT_TRUE(runtime::is_guard_method_name("__ember_guards__forward"));
  EXPECT_TRUE(runtime::is_guard_method_name("__ember_guards__"));
  EXPECT_FALSE(runtime::is_guard_method_name("forward"));
  EXPECT_FALSE(runtime::is_guard_method_name("__ember_guard"));
  EXPECT_FALSE(runtime::is_guard_method_name(nullptr));
}

}  // namespace
}  // namespace ember::testing
