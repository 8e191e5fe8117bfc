// Which XNNPACK is linked: prints the version scripts/build_xnnpack.sh built and fails if
// Debian 12's 2022 library (a shared libXNNPACK.so.0) is in the process, if the 2024 API is
// missing, or if the built version is not the pinned 2024-11 one.
#include <dlfcn.h>
#include <ember_xnnpack_version.h>
#include <gtest/gtest.h>
#include <link.h>
#include <xnnpack.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

std::vector<std::string> loaded_objects() {
  std::vector<std::string> names;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        static_cast<std::vector<std::string>*>(data)->push_back(info->dlpi_name ? info->dlpi_name
                                                                                : "");
        return 0;
      },
      &names);
  return names;
}

TEST(XnnpackVersion, Is2024StaticLibrary) {
  std::printf("XNNPACK linked: %s (static, built by scripts/build_xnnpack.sh)\n",
              EMBER_XNNPACK_VERSION);
  EXPECT_STREQ(EMBER_XNNPACK_VERSION, "0.0~git20241108.4ea82e5");
  for (const std::string& name : loaded_objects()) {
    EXPECT_EQ(name.find("libXNNPACK"), std::string::npos)
        << "a shared XNNPACK is loaded (Debian 12's 2022 library?): " << name;
  }
  // xnn_initialize lives in this executable, not in a shared library.
  Dl_info info = {};
  ASSERT_NE(dladdr(reinterpret_cast<void*>(&xnn_initialize), &info), 0);
  Dl_info main_info = {};
  ASSERT_NE(dladdr(reinterpret_cast<void*>(&loaded_objects), &main_info), 0);
  EXPECT_EQ(info.dli_fbase, main_info.dli_fbase) << "xnn_initialize is in " << info.dli_fname;
}

TEST(XnnpackVersion, Has2024SubgraphApi) {
  ASSERT_EQ(xnn_initialize(nullptr), xnn_status_success);
  xnn_subgraph_t sg = nullptr;
  ASSERT_EQ(xnn_create_subgraph(2, 0, &sg), xnn_status_success);
  const size_t dims[1] = {4};
  uint32_t in = XNN_INVALID_VALUE_ID, out = XNN_INVALID_VALUE_ID;
  ASSERT_EQ(xnn_define_tensor_value(sg, xnn_datatype_fp32, 1, dims, nullptr, 0,
                                    XNN_VALUE_FLAG_EXTERNAL_INPUT, &in),
            xnn_status_success);
  ASSERT_EQ(xnn_define_tensor_value(sg, xnn_datatype_fp32, 1, dims, nullptr, 1,
                                    XNN_VALUE_FLAG_EXTERNAL_OUTPUT, &out),
            xnn_status_success);
  // xnn_define_unary and the tanh operator are new in the 2024 library.
  ASSERT_EQ(xnn_define_unary(sg, xnn_unary_tanh, nullptr, in, out, 0), xnn_status_success);
  xnn_runtime_t rt = nullptr;
  ASSERT_EQ(xnn_create_runtime_v2(sg, nullptr, 0, &rt), xnn_status_success);
  ASSERT_EQ(xnn_reshape_runtime(rt), xnn_status_success);
  float x[4 + XNN_EXTRA_BYTES / sizeof(float)] = {-1.f, 0.f, 0.5f, 3.f};
  float y[4 + XNN_EXTRA_BYTES / sizeof(float)] = {};
  const xnn_external_value ext[2] = {{0, x}, {1, y}};
  ASSERT_EQ(xnn_setup_runtime_v2(rt, 2, ext), xnn_status_success);
  ASSERT_EQ(xnn_invoke_runtime(rt), xnn_status_success);
  // tanh(-1), tanh(0), tanh(0.5), tanh(3) from the series by hand / tables.
  EXPECT_NEAR(y[0], -0.7615942f, 1e-5);
  EXPECT_NEAR(y[1], 0.f, 1e-6);
  EXPECT_NEAR(y[2], 0.4621172f, 1e-5);
  EXPECT_NEAR(y[3], 0.9950548f, 1e-5);
  xnn_delete_runtime(rt);
  xnn_delete_subgraph(sg);
}

}  // namespace
