// The C API on programs made by upstream ExecuTorch (../shared/fixtures, skipped when
// absent): external weights from a .ptd, String and Int outputs of metadata methods. Expected
// values are upstream's (the examples' own assertions, recorded in the corpus CATALOG.md).
#include <gtest/gtest.h>

#include <string>

#include "ember/ember.h"
#include "tests/support/shared_fixtures.h"

namespace {

std::string pte_dir() {
  const std::string dir = ember::testing::shared_dir();
  return dir.empty() ? dir : dir + "/fixtures/executorch-pte/";
}

// executorch-rs examples/data_map: forward(x) = 3 * x + 2 with both constants EXTERNAL in a .ptd;
// its main.rs asserts [[1,2],[3,4]] -> [[5,8],[11,14]].
TEST(CapiUpstreamTest, ExternalWeightsFromPtd) {
  const std::string dir = pte_dir();
  if (dir.empty()) GTEST_SKIP() << ember::testing::skip_message();
  const std::string pte = dir + "barakugav__executorch-rs__data_map_model.pte";
  const std::string ptd = dir + "barakugav__executorch-rs__data_map__default_external_constant.ptd";
  ember_program_options options;
  ember_program_options_init(&options);
  options.data_path = ptd.c_str();
  ember_program* program = nullptr;
  ASSERT_EQ(ember_program_load_file(pte.c_str(), &options, &program), EMBER_OK)
      << ember_last_error_message();
  ember_method* method = nullptr;
  ASSERT_EQ(ember_method_create(program, "forward", nullptr, &method), EMBER_OK)
      << ember_program_last_error(program);
  const float x[4] = {1, 2, 3, 4};
  ASSERT_EQ(ember_method_set_input(method, 0, EMBER_DTYPE_FLOAT, x, sizeof(x)), EMBER_OK);
  ASSERT_EQ(ember_method_execute(method), EMBER_OK) << ember_method_last_error(method);
  ember_value out;
  ember_value_init(&out);
  ASSERT_EQ(ember_method_output(method, 0, &out), EMBER_OK);
  ASSERT_EQ(out.nbytes, sizeof(x));
  const float want[4] = {5, 8, 11, 14};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(static_cast<const float*>(out.data)[i], want[i]);
  ember_method_destroy(method);
  ember_program_destroy(program);

  // Without the .ptd the method cannot be created, and the error says why.
  ASSERT_EQ(ember_program_load_file(pte.c_str(), nullptr, &program), EMBER_OK);
  const ember_status s = ember_method_create(program, "forward", nullptr, &method);
  EXPECT_NE(s, EMBER_OK);
  EXPECT_EQ(method, nullptr);
  EXPECT_NE(std::string(ember_program_last_error(program)).find(".ptd"), std::string::npos)
      << ember_status_name(s) << ": " << ember_program_last_error(program);
  ember_program_destroy(program);
}

// ExecuTorch's Android training test program: metadata methods return Strings and Ints.
TEST(CapiUpstreamTest, StringAndIntOutputs) {
  const std::string dir = pte_dir();
  if (dir.empty()) GTEST_SKIP() << ember::testing::skip_message();
  const std::string pte = dir + "pytorch__executorch__xor.pte";
  const std::string ptd = dir + "pytorch__executorch__xor.ptd";
  ember_program_options options;
  ember_program_options_init(&options);
  options.data_path = ptd.c_str();
  ember_program* program = nullptr;
  ASSERT_EQ(ember_program_load_file(pte.c_str(), &options, &program), EMBER_OK)
      << ember_last_error_message();
  EXPECT_EQ(ember_program_method_count(program), 4u);
  ember_method* method = nullptr;
  ASSERT_EQ(ember_method_create(program, "__et_training_fqn_forward", nullptr, &method), EMBER_OK)
      << ember_program_last_error(program);
  ASSERT_EQ(ember_method_execute(method), EMBER_OK) << ember_method_last_error(method);
  const char* names[] = {"net.linear.weight", "net.linear.bias", "net.linear2.weight",
                         "net.linear2.bias"};
  ASSERT_EQ(ember_method_output_count(method), 4u);
  for (size_t i = 0; i < 4; ++i) {
    ember_value v;
    ember_value_init(&v);
    ASSERT_EQ(ember_method_output(method, i, &v), EMBER_OK);
    ASSERT_EQ(v.kind, EMBER_KIND_STRING);
    EXPECT_EQ(std::string(static_cast<const char*>(v.data), v.count), names[i]);
  }
  ember_method_destroy(method);
  ASSERT_EQ(ember_method_create(program, "__et_training_gradients_index_forward", nullptr, &method),
            EMBER_OK);
  ASSERT_EQ(ember_method_execute(method), EMBER_OK);
  ember_value v;
  ember_value_init(&v);
  ASSERT_EQ(ember_method_output(method, 0, &v), EMBER_OK);
  EXPECT_EQ(v.kind, EMBER_KIND_INT);
  EXPECT_EQ(v.i, 2);
  ember_method_destroy(method);
  ember_program_destroy(program);
}

}  // namespace
