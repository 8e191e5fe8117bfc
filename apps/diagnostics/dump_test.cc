// IntermediateDumper on the in-memory add program (out = a + b, float[2]): the index names
// entries by kernel without a sidecar and by node with one, the .npy files hold the values
// (1 + 3, 2 + 4 by hand), a sidecar's out-of-range value index is skipped, a channels-last
// tensor is written in logical (NCHW) order, and untrusted names cannot leave the directory.
#include "apps/diagnostics/dump.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "runtime/core/diagnostics.h"
#include "runtime/executor/testing/method_fixture.h"
#include "apps/diagnostics/npy.h"

namespace ember::testing {
namespace {

using runtime::DebugInfo;
using runtime::Error;
using runtime::EValue;
using runtime::IntermediateDumper;
using runtime::ScalarType;
using runtime::Tensor;

std::string tmpdir(const std::string& name) {
  const char* t = getenv("TEST_TMPDIR");
  return std::string(t != nullptr ? t : "/tmp") + "/" + name;
}

nlohmann::json read_index(const std::string& dir) {
  std::ifstream in(dir + "/index.json");
  std::stringstream s;
  s << in.rdbuf();
  return nlohmann::json::parse(s.str());
}

std::vector<float> read_floats(const std::string& path) {
  runtime::Result<runtime::NpyArray> a = runtime::read_npy(path);
  EXPECT_TRUE(a.ok()) << runtime::last_error_message();
  if (!a.ok()) return {};
  std::vector<float> v(a->header.data_size / 4);
  memcpy(v.data(), a->data(), a->header.data_size);
  return v;
}

class DumpTest : public MethodFixture {
 protected:
  // Runs the add program once with `dumper` observing.
  void run(runtime::Method& method, IntermediateDumper& dumper) {
    Tensor ta(ScalarType::Float, 1, sizes_[0], order_[0], strides_[0], a_);
    Tensor tb(ScalarType::Float, 1, sizes_[1], order_[1], strides_[1], b_);
    ASSERT_EQ(method.set_input(EValue(&ta), 0), Error::Ok);
    ASSERT_EQ(method.set_input(EValue(&tb), 1), Error::Ok);
    ASSERT_EQ(dumper.prepare(), Error::Ok) << runtime::last_error_message();
    method.set_instruction_observer(&dumper);
    ASSERT_EQ(method.execute(), Error::Ok);
    method.set_instruction_observer(nullptr);
    ASSERT_EQ(dumper.finish(method, "add.pte"), Error::Ok) << runtime::last_error_message();
  }
  float a_[2] = {1, 2}, b_[2] = {3, 4};
  int32_t sizes_[2][1] = {{2}, {2}};
  uint8_t order_[2][1] = {{0}, {0}};
  int32_t strides_[2][1];
};

TEST_F(DumpTest, WithoutSidecarNamesByKernel) {
  auto method = load(*make_add_program());
  ASSERT_TRUE(method.ok());
  const std::string dir = tmpdir("plain");
  IntermediateDumper dumper(*method, dir, nullptr);
  run(*method, dumper);
  const nlohmann::json index = read_index(dir);
  EXPECT_EQ(index["format"], "ember.dump");
  EXPECT_EQ(index["provenance"], false);
  ASSERT_EQ(index["entries"].size(), 2u);  // the add's output, the method output
  const auto& e = index["entries"][0];
  EXPECT_EQ(e["name"], std::string(method->instruction_name(0)) + "@0");
  EXPECT_EQ(e["dtype"], "float32");
  EXPECT_EQ(e["shape"], nlohmann::json::parse("[2]"));
  EXPECT_EQ(read_floats(dir + "/" + e["file"].get<std::string>()), (std::vector<float>{4, 6}));
  EXPECT_EQ(index["entries"][1]["name"], "output:0");
  EXPECT_EQ(read_floats(dir + "/output_0.npy"), (std::vector<float>{4, 6}));
}

TEST_F(DumpTest, SidecarNamesByNodeAndSkipsBadValueIndices) {
  auto method = load(*make_add_program());
  ASSERT_TRUE(method.ok());
  runtime::Result<DebugInfo> debug = DebugInfo::parse(
      R"({"format":"ember.ptdbg","version":1,"methods":[{"name":"forward","instructions":[
          {"node":"add_1","op":"aten::add","source":"net.py:3","module":"m","kind":"kernel","outputs":[3]}]}]})",
      "test");
  ASSERT_TRUE(debug.ok()) << runtime::last_error_message();
  const std::string dir = tmpdir("named");
  IntermediateDumper dumper(*method, dir, &*debug);
  run(*method, dumper);
  const nlohmann::json index = read_index(dir);
  const auto& e = index["entries"][0];
  EXPECT_EQ(e["name"], "add_1");
  EXPECT_EQ(e["op"], "aten::add");
  EXPECT_EQ(e["source"], "net.py:3");
  EXPECT_EQ(e["file"], "0000_add_1.npy");
  EXPECT_EQ(read_floats(dir + "/0000_add_1.npy"), (std::vector<float>{4, 6}));

  runtime::Result<DebugInfo> bad = DebugInfo::parse(
      R"({"format":"ember.ptdbg","version":1,"methods":[{"name":"forward","instructions":[
          {"node":"../../x","op":"","source":"","module":"","kind":"kernel","outputs":[999]}]}]})",
      "test");
  ASSERT_TRUE(bad.ok());
  const std::string dir2 = tmpdir("bad");
  IntermediateDumper d2(*method, dir2, &*bad);
  run(*method, d2);
  EXPECT_EQ(read_index(dir2)["entries"].size(), 1u);  // only output:0
}

TEST_F(DumpTest, ChannelsLastIsWrittenInLogicalOrder) {
  auto method = load(*make_add_program());
  ASSERT_TRUE(method.ok());
  const std::string dir = tmpdir("cl");
  IntermediateDumper dumper(*method, dir, nullptr);
  ASSERT_EQ(dumper.prepare(), Error::Ok);
  // N=1, C=2, H=1, W=3 in NHWC memory: memory[w * 2 + c] = 10 * c + w.
  int32_t sizes[4] = {1, 2, 1, 3};
  uint8_t order[4] = {0, 2, 3, 1};
  int32_t strides[4];
  float memory[6];
  for (int w = 0; w < 3; ++w) {
    for (int c = 0; c < 2; ++c) memory[w * 2 + c] = float(10 * c + w);
  }
  Tensor t(ScalarType::Float, 4, sizes, order, strides, memory);
  EValue v(&t);
  EValue* args[1] = {&v};
  dumper.after_instruction(0, runtime::Span<EValue* const>(args, 1));
  ASSERT_EQ(dumper.finish(*method, "x.pte"), Error::Ok);
  const nlohmann::json index = read_index(dir);
  const auto& e = index["entries"][0];
  EXPECT_EQ(e["shape"], nlohmann::json::parse("[1,2,1,3]"));
  // Logical NCHW order: c = 0 row (0, 1, 2), then c = 1 row (10, 11, 12).
  EXPECT_EQ(read_floats(dir + "/" + e["file"].get<std::string>()), (std::vector<float>{0, 1, 2, 10, 11, 12}));
}

TEST(DumpNames, UntrustedNamesStayInTheDirectory) {
  EXPECT_EQ(runtime::safe_file_part("conv2d_3"), "conv2d_3");
  const std::string evil = runtime::safe_file_part("../../etc/passwd");
  EXPECT_EQ(evil.find('/'), std::string::npos);
  EXPECT_NE(evil[0], '.');
  EXPECT_EQ(runtime::safe_file_part(""), "_");
  EXPECT_EQ(runtime::safe_file_part(std::string(500, 'a')).size(), 80u);
}

}  // namespace
}  // namespace ember::testing
