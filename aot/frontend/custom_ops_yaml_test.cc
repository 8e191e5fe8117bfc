// Tests for custom ops YAML files: the example's file, upstream's kernels: lines, and one
// malformed file per error, each expected to name its file and (1-based) line.
#include "aot/frontend/custom_ops_yaml.h"

#include <gtest/gtest.h>

namespace ember::aot {
namespace {

// The error of reading `text` as a file and building its schemas.
std::string error_of(const std::string& text) {
  auto r = parse_custom_ops_yaml(text, "ops.yaml");
  Error e = r.ok() ? Error::Ok : r.error();
  if (r.ok()) {
    auto s = custom_op_schemas(r.get());
    e = s.ok() ? Error::Ok : s.error();
  }
  EXPECT_EQ(e, Error::InvalidArgument) << text;
  return last_error_message();
}

TEST(CustomOpsYamlTest, ReadsTheExampleFile) {
  auto r = read_custom_ops_file("examples/custom_op/scaled_add_ops.yaml");
  ASSERT_TRUE(r.ok()) << format_error(r.error());
  const OpSchema* f = r.get()->find("mylib::scaled_add.default");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->out_variant, "mylib::scaled_add.out");
  EXPECT_EQ(f->to_string(), "mylib::scaled_add.default(Tensor a, Tensor b, float alpha=1.0) -> Tensor");
  EXPECT_EQ(f->declared_at.rfind("examples/custom_op/scaled_add_ops.yaml:", 0), 0u) << f->declared_at;
}

TEST(CustomOpsYamlTest, UpstreamShapeWithKernelsAndLines) {
  const char* text =
      "# my ops\n"
      "- func: mylib::a.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!)\n"
      "  kernels:\n"
      "    - arg_meta: null\n"
      "      kernel_name: mylib::a_out\n"
      "\n"
      "- func: mylib::b.out(Tensor x, int[] dims, bool keep=False, *, Tensor(a!) out) -> Tensor(a!)\n";
  auto r = parse_custom_ops_yaml(text, "ops.yaml");
  ASSERT_TRUE(r.ok()) << format_error(r.error());
  ASSERT_EQ(r.get().size(), 2u);
  EXPECT_EQ(r.get()[0].where, "ops.yaml:2");
  EXPECT_EQ(r.get()[1].where, "ops.yaml:7");
  EXPECT_EQ(r.get()[1].func,
            "mylib::b.out(Tensor x, int[] dims, bool keep=False, *, Tensor(a!) out) -> Tensor(a!)");
}

TEST(CustomOpsYamlTest, EmptyFileDeclaresNothing) {
  auto r = parse_custom_ops_yaml("# nothing yet\n", "ops.yaml");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r.get().empty());
}

TEST(CustomOpsYamlTest, MalformedEntriesNameFileAndLine) {
  EXPECT_NE(error_of("func: mylib::a.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!)\n")
                .find("ops.yaml:1: a custom ops file is a YAML list"),
            std::string::npos);
  EXPECT_NE(error_of("- func: mylib::a.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!)\n"
                     "- mylib::b.out(Tensor x) -> Tensor\n")
                .find("ops.yaml:2: each entry is a map with a 'func:' key"),
            std::string::npos);
  EXPECT_NE(error_of("- kernels:\n    - kernel_name: x\n").find("ops.yaml:1: entry has no 'func:' key"),
            std::string::npos)
      << last_error_message();
  EXPECT_NE(error_of("- func: mylib::a.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!)\n"
                     "  dispatch: CPU\n")
                .find("ops.yaml:2: unknown key 'dispatch'"),
            std::string::npos);
  EXPECT_NE(error_of("- func: [1, 2]\n").find("ops.yaml:1: 'func:' must be a schema string"),
            std::string::npos);
  EXPECT_NE(error_of("- func: mylib::a.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!)\n"
                     "- func: mylib::b.out(Tensor x, flot y, *, Tensor(a!) out) -> Tensor(a!)\n")
                .find("ops.yaml:2: func 'mylib::b.out(Tensor x, flot y, *, Tensor(a!) out) -> "
                      "Tensor(a!)': column 24: unknown type 'flot'"),
            std::string::npos)
      << last_error_message();
  EXPECT_NE(error_of("- func: mylib::a.out(Tensor x\n  - [unbalanced\n").find("ops.yaml:"),
            std::string::npos);
  EXPECT_NE(error_of("- func: [unclosed\n").find("not valid YAML"), std::string::npos)
      << last_error_message();
}

TEST(CustomOpsYamlTest, MissingFileIsAccessFailed) {
  auto r = read_custom_ops_file("no/such/ops.yaml");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), Error::AccessFailed);
  EXPECT_NE(std::string(last_error_message()).find("no/such/ops.yaml"), std::string::npos);
}

}  // namespace
}  // namespace ember::aot
