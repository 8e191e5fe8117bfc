// The selective-build generator on small hand-written tables and op lists.
#include "apps/selective_kernels/selective_kernels.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

namespace ember::aot {
namespace {

const char kTable[] = R"(
#include "kernels/portable/register_kernels.h"
#include "kernels/portable/ops/arith.h"
#include "kernels/portable/ops/activation.h"
const Kernel kKernels[] = {
    {"aten::add.out", boxed<&add_out>},
    {"aten::relu.out", boxed<&relu_out>},
    {"aten::detach_copy.out", boxed<&plain_copy_out>},
};
)";

SelectiveOptions options() {
  SelectiveOptions o;
  o.ns = "app::sel";
  o.header = "pkg/sel.h";
  return o;
}

TEST(SelectiveKernelsTest, ParsesTheTable) {
  Result<KernelTable> t = parse_kernel_table(kTable);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->functions.size(), 3u);
  EXPECT_EQ(t->functions.at("aten::relu.out"), "relu_out");
  EXPECT_EQ(t->includes.size(), 3u);
}

TEST(SelectiveKernelsTest, EmptyTableIsAnError) {
  EXPECT_EQ(parse_kernel_table("int x;").error(), Error::InvalidArgument);
}

TEST(SelectiveKernelsTest, SourceNamesOnlyTheSelectedFunctions) {
  Result<KernelTable> t = parse_kernel_table(kTable);
  Result<std::string> s = selective_source(*t, {"aten::relu.out"}, {}, options());
  ASSERT_TRUE(s.ok());
  EXPECT_NE(s->find("{\"aten::relu.out\", boxed<&relu_out>}"), std::string::npos);
  EXPECT_EQ(s->find("add_out"), std::string::npos);
  EXPECT_NE(s->find("#include \"pkg/sel.h\""), std::string::npos);
  EXPECT_EQ(s->find("register_kernels.h"), std::string::npos);
  EXPECT_NE(s->find("namespace app::sel {"), std::string::npos);
  EXPECT_NE(s->find("kCount = 1;"), std::string::npos);
}

TEST(SelectiveKernelsTest, EmptySelectionIsValid) {
  Result<KernelTable> t = parse_kernel_table(kTable);
  Result<std::string> s = selective_source(*t, {}, {}, options());
  ASSERT_TRUE(s.ok());
  EXPECT_NE(s->find("kCount = 0;"), std::string::npos);
}

TEST(SelectiveKernelsTest, MissingKernelIsNamed) {
  Result<KernelTable> t = parse_kernel_table(kTable);
  Result<std::string> s = selective_source(*t, {"aten::relu.out", "mylib::foo.out"}, {}, options());
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error(), Error::OperatorMissing);
  EXPECT_NE(format_error(s.error()).find("mylib::foo.out"), std::string::npos);
  // Registered elsewhere (prim ops, the app's own kernels): not missing, not in the table.
  Result<std::string> ok = selective_source(*t, {"aten::relu.out", "mylib::foo.out"}, {"mylib::foo.out"}, options());
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->find("mylib::foo.out"), std::string::npos);
}

TEST(SelectiveKernelsTest, ProvidedOpsFromARegistrationSource) {
  std::set<std::string> p = parse_provided_ops(R"({"aten::sym_size.int", sym_size},
    {"executorch_prim::add.Scalar", add},)");
  EXPECT_EQ(p, (std::set<std::string>{"aten::sym_size.int", "executorch_prim::add.Scalar"}));
}

TEST(SelectiveKernelsTest, OpListsInThreeForms) {
  const char inspect[] = R"({"format": "pte", "methods": [
      {"name": "forward", "operators": {"aten::addmm.out": 2, "<delegate call>": 1}},
      {"name": "b", "operators": {"aten::relu.out": 1}}]})";
  EXPECT_EQ(*op_list_operators(inspect), (std::set<std::string>{"aten::addmm.out", "aten::relu.out"}));
  EXPECT_EQ(*op_list_operators(R"(["aten::add.out"])"), std::set<std::string>{"aten::add.out"});
  EXPECT_EQ(*op_list_operators("# mine\naten::add.out\n  aten::mul.out  # too\n\n"),
            (std::set<std::string>{"aten::add.out", "aten::mul.out"}));
  EXPECT_EQ(op_list_operators("not an op\n").error(), Error::InvalidArgument);
  EXPECT_EQ(op_list_operators("{\"methods\": [").error(), Error::InvalidArgument);
}

// The dtype selection header: the union of the selected operators' dtypes as a ScalarType bit
// mask, each pair named; provided ops do not count; an operator without dtypes (from an op
// list) selects every dtype unless dtypes were asked for.
TEST(SelectiveKernelsTest, DtypeHeaderHoldsTheSelectedPairs) {
  const std::map<std::string, std::set<int>> dtypes = {
      {"aten::addmm.out", {6}}, {"aten::relu.out", {6}}, {"aten::index.Tensor_out", {4, 6}},
      {"aten::sym_size.int", {3}}};
  std::string h = selective_dtype_header({"aten::addmm.out", "aten::relu.out"}, dtypes, {}, {}, options());
  EXPECT_NE(h.find("#define EMBER_SELECTED_DTYPES 0x40ull\n"), std::string::npos) << h;
  EXPECT_NE(h.find("//   aten::addmm.out: Float\n"), std::string::npos) << h;
  h = selective_dtype_header({"aten::addmm.out", "aten::index.Tensor_out", "aten::sym_size.int"}, dtypes,
                             {"aten::sym_size.int"}, {}, options());
  EXPECT_NE(h.find("#define EMBER_SELECTED_DTYPES 0x50ull\n"), std::string::npos) << h;  // Long, Float
  EXPECT_NE(h.find("//   aten::index.Tensor_out: Long Float\n"), std::string::npos) << h;
  h = selective_dtype_header({"aten::addmm.out", "aten::mul.out"}, dtypes, {}, {}, options());
  EXPECT_NE(h.find("#define EMBER_SELECTED_DTYPES (~0ull)\n"), std::string::npos) << h;
  h = selective_dtype_header({"aten::addmm.out", "aten::mul.out"}, dtypes, {}, {scalar_type_code("Half")}, options());
  EXPECT_NE(h.find("#define EMBER_SELECTED_DTYPES 0x60ull\n"), std::string::npos) << h;  // Half, Float
  EXPECT_EQ(scalar_type_code("BFloat16"), 15);
  EXPECT_EQ(scalar_type_code("float"), -1);
}

}  // namespace
}  // namespace ember::aot
