// The lower tool's delegation flags, run as a subprocess on the .pt2 fixtures:
// --recipe demo with repeated --method NAME=FILE writes one multi-method program whose
// methods match PyTorch's reference outputs; --pass NAME applies a registered user pass;
// unknown passes and malformed --method values fail with the error named.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

#include "tests/delegation/pipeline_util.h"

namespace ember::testing {
namespace {

const std::string kDir = "tests/fixtures/pt2/";

struct Result {
  int status;
  std::string output;
};

Result lower(const std::string& args) {
  const std::string log = std::string(std::getenv("TEST_TMPDIR")) + "/lower.log";
  const int rc = std::system(("apps/lower/lower " + args + " > " + log + " 2>&1").c_str());
  std::ifstream f(log);
  return {rc, std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>())};
}

std::vector<uint8_t> read(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

aot::HostTensor fixture(const std::string& file, std::vector<int64_t> sizes) {
  aot::HostTensor t;
  t.sizes = std::move(sizes);
  t.bytes = read(kDir + file);
  return t;
}

TEST(LowerTool, MultiMethodProgramWithDemoRecipe) {
  const std::string out = std::string(std::getenv("TEST_TMPDIR")) + "/prog.pte";
  Result r = lower("--recipe demo --method encode=" + kDir + "mlp.core_aten.torch2_6.pt2" +
                   " --method=decode=" + kDir + "buffers_consts.core_aten.torch2_6.pt2 -o " + out);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("2 methods"), std::string::npos) << r.output;
  const std::vector<uint8_t> pte = read(out);
  auto enc = run_with_demo(pte, "encode", {fixture("mlp.core_aten.torch2_6.input0.bin", {4, 16})});
  ASSERT_TRUE(enc.ok()) << ::ember::aot::format_error(enc.error());
  const std::vector<float> got = floats((*enc)[0]);
  const std::vector<float> want = floats(fixture("mlp.core_aten.torch2_6.output0.bin", {4, 10}));
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5) << i;
  auto dec = run_with_demo(pte, "decode",
                           {fixture("buffers_consts.core_aten.torch2_6.input0.bin", {3, 4}),
                            fixture("buffers_consts.core_aten.torch2_6.input1.bin", {3, 1})});
  ASSERT_TRUE(dec.ok()) << ::ember::aot::format_error(dec.error());
}

TEST(LowerTool, PassByName) {
  const std::string out = std::string(std::getenv("TEST_TMPDIR")) + "/mlp_sigmoid.pte";
  Result r = lower("--recipe demo --pass replace_relu_with_sigmoid " + kDir +
                   "mlp.core_aten.torch2_6.pt2 -o " + out);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("demo:"), std::string::npos) << r.output;  // sigmoids delegated
  auto enc = run_with_demo(read(out), "forward",
                           {fixture("mlp.core_aten.torch2_6.input0.bin", {4, 16})});
  ASSERT_TRUE(enc.ok()) << ::ember::aot::format_error(enc.error());
  // With sigmoid instead of relu the output differs from PyTorch's relu model.
  EXPECT_NE(floats((*enc)[0]), floats(fixture("mlp.core_aten.torch2_6.output0.bin", {4, 10})));

  Result bad = lower("--pass fold_everything " + kDir + "mlp.core_aten.torch2_6.pt2 -o " + out);
  EXPECT_NE(bad.status, 0);
  EXPECT_NE(bad.output.find("unknown pass 'fold_everything'"), std::string::npos) << bad.output;
  Result bad_method = lower("--method encode -o " + out);
  EXPECT_NE(bad_method.status, 0);
  EXPECT_NE(bad_method.output.find("expected NAME=FILE.pt2"), std::string::npos) << bad_method.output;
}

}  // namespace
}  // namespace ember::testing
