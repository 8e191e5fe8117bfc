// The C API driven from C++ (gtest): programs lowered in the build from committed fixtures,
// checked against PyTorch's reference outputs (tests/fixtures/pt2), hand-built programs for
// non-tensor outputs and zero-copy inputs, and the error paths (null pointers, bad indices,
// wrong byte sizes and dtypes, truncated files, too little caller memory).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "ember/ember.h"
#include "runtime/executor/testing/program_builder.h"

namespace {

const char kFixtures[] = "tests/fixtures/pt2/";
const char kPrograms[] = "tests/embedding/";

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

std::vector<float> read_floats(const std::string& path) {
  const std::vector<uint8_t> bytes = read_file(path);
  std::vector<float> v(bytes.size() / sizeof(float));
  std::memcpy(v.data(), bytes.data(), v.size() * sizeof(float));
  return v;
}

// The manifest's tolerance for float outputs: |got - ref| <= 1e-5 + 1e-4 |ref|.
void expect_close(const ember_value& out, const std::vector<float>& ref) {
  ASSERT_EQ(out.kind, EMBER_KIND_TENSOR);
  ASSERT_EQ(out.dtype, EMBER_DTYPE_FLOAT);
  ASSERT_EQ(out.nbytes, ref.size() * sizeof(float));
  const auto* got = static_cast<const float*>(out.data);
  for (size_t i = 0; i < ref.size(); ++i) {
    EXPECT_LE(std::fabs(got[i] - ref[i]), 1e-5f + 1e-4f * std::fabs(ref[i])) << "element " << i;
  }
}

struct Program {
  ember_program* p = nullptr;
  ~Program() { ember_program_destroy(p); }
};
struct Method {
  ember_method* m = nullptr;
  ~Method() { ember_method_destroy(m); }
};

// Loads `name` from tests/embedding and creates "forward" with `options` (may be null).
void open(const char* name, const ember_method_options* options, Program* program, Method* method) {
  const std::string path = std::string(kPrograms) + name;
  ASSERT_EQ(ember_program_load_file(path.c_str(), nullptr, &program->p), EMBER_OK)
      << ember_last_error_message();
  ASSERT_EQ(ember_method_create(program->p, "forward", options, &method->m), EMBER_OK)
      << ember_program_last_error(program->p);
}

void run_mlp(const char* pte, const ember_method_options* options) {
  Program program;
  Method method;
  open(pte, options, &program, &method);
  const std::vector<uint8_t> input =
      read_file(std::string(kFixtures) + "mlp.core_aten.torch2_6.input0.bin");
  ASSERT_EQ(input.size(), 4u * 16 * 4);
  ASSERT_EQ(ember_method_set_input(method.m, 0, EMBER_DTYPE_FLOAT, input.data(), input.size()),
            EMBER_OK)
      << ember_method_last_error(method.m);
  ASSERT_EQ(ember_method_execute(method.m), EMBER_OK) << ember_method_last_error(method.m);
  ember_value out;
  ember_value_init(&out);
  ASSERT_EQ(ember_method_output(method.m, 0, &out), EMBER_OK);
  ASSERT_EQ(out.rank, 2u);
  EXPECT_EQ(out.sizes[0], 4);
  EXPECT_EQ(out.sizes[1], 10);
  expect_close(out, read_floats(std::string(kFixtures) + "mlp.core_aten.torch2_6.output0.bin"));
}

TEST(CapiTest, VersionAndNames) {
  EXPECT_EQ(ember_version(), uint32_t(EMBER_VERSION));
  EXPECT_STREQ(ember_status_name(EMBER_INVALID_ARGUMENT), "InvalidArgument");
  EXPECT_STREQ(ember_status_name(EMBER_INVALID_PROGRAM), "InvalidProgram");
  EXPECT_STREQ(ember_status_name(static_cast<ember_status>(0x77)), "Unknown");
  EXPECT_EQ(int(EMBER_MEMORY_ALLOCATION_FAILED), 0x21);  // ExecuTorch's value
  EXPECT_STREQ(ember_dtype_name(EMBER_DTYPE_FLOAT), "float32");
  EXPECT_STREQ(ember_dtype_name(static_cast<ember_dtype>(99)), "unknown");
  EXPECT_EQ(ember_dtype_size(EMBER_DTYPE_INT64), 8u);
  EXPECT_EQ(ember_dtype_size(static_cast<ember_dtype>(-5)), 0u);
  ASSERT_EQ(ember_backend_count(), 1u);
  EXPECT_STREQ(ember_backend_name(0), "XnnpackBackend");
  EXPECT_EQ(ember_backend_name(1), nullptr);
}

TEST(CapiTest, MlpPortableMatchesPyTorch) { run_mlp("mlp.pte", nullptr); }

TEST(CapiTest, MlpXnnpackMatchesPyTorch) { run_mlp("mlp_xnnpack.pte", nullptr); }

TEST(CapiTest, MlpTwoThreads) {
  ember_method_options options;
  ember_method_options_init(&options);
  options.num_threads = 2;
  run_mlp("mlp.pte", &options);
  run_mlp("mlp_xnnpack.pte", &options);
}

TEST(CapiTest, XnnpackOffRefusesDelegatedProgram) {
  ember_method_options options;
  ember_method_options_init(&options);
  options.backends = "";
  Program program;
  ASSERT_EQ(ember_program_load_file("tests/embedding/mlp_xnnpack.pte", nullptr, &program.p),
            EMBER_OK);
  ember_method* m = nullptr;
  EXPECT_EQ(ember_method_create(program.p, "forward", &options, &m), EMBER_NOT_FOUND);
  EXPECT_EQ(m, nullptr);
  EXPECT_NE(std::string(ember_program_last_error(program.p)).find("XnnpackBackend"),
            std::string::npos)
      << ember_program_last_error(program.p);
  options.backends = "XnnpackBackend";  // explicitly on
  Method method;
  EXPECT_EQ(ember_method_create(program.p, "forward", &options, &method.m), EMBER_OK);
  options.backends = "CoreMLBackend";  // not linked
  EXPECT_EQ(ember_method_create(program.p, "forward", &options, &m), EMBER_NOT_FOUND);
  EXPECT_NE(std::string(ember_program_last_error(program.p)).find("'CoreMLBackend' is not linked"),
            std::string::npos);
}

TEST(CapiTest, LoadFromBufferWithoutCopy) {
  std::vector<uint8_t> bytes = read_file("tests/embedding/mlp.pte");
  ember::testing::AlignedBytes aligned(bytes);
  Program program;
  ASSERT_EQ(ember_program_load_buffer(aligned.data(), aligned.size(), nullptr, &program.p),
            EMBER_OK)
      << ember_last_error_message();
  ASSERT_EQ(ember_program_method_count(program.p), 1u);
  const char* name = nullptr;
  ASSERT_EQ(ember_program_method_name(program.p, 0, &name), EMBER_OK);
  EXPECT_STREQ(name, "forward");
  EXPECT_EQ(ember_program_method_name(program.p, 1, &name), EMBER_INVALID_ARGUMENT);
  EXPECT_NE(std::string(ember_program_last_error(program.p)).find("out of range"),
            std::string::npos);
}

TEST(CapiTest, ProgramInCallerStorage) {
  std::vector<uint8_t> bytes = read_file("tests/embedding/mlp.pte");
  ember::testing::AlignedBytes aligned(bytes);
  std::vector<std::max_align_t> storage(ember_program_storage_size() / sizeof(std::max_align_t) +
                                        1);
  ember_program_options options;
  ember_program_options_init(&options);
  options.storage = storage.data();
  options.storage_size = 16;  // too small
  ember_program* p = nullptr;
  EXPECT_EQ(ember_program_load_buffer(aligned.data(), aligned.size(), &options, &p),
            EMBER_MEMORY_ALLOCATION_FAILED);
  EXPECT_EQ(p, nullptr);
  options.storage_size = storage.size() * sizeof(std::max_align_t);
  ASSERT_EQ(ember_program_load_buffer(aligned.data(), aligned.size(), &options, &p), EMBER_OK);
  EXPECT_EQ(static_cast<void*>(p), static_cast<void*>(storage.data()));
  ember_program_destroy(p);
}

TEST(CapiTest, InputOutputMetadata) {
  Program program;
  Method method;
  open("mlp.pte", nullptr, &program, &method);
  EXPECT_STREQ(ember_method_name(method.m), "forward");
  ASSERT_EQ(ember_method_input_count(method.m), 1u);
  ASSERT_EQ(ember_method_output_count(method.m), 1u);
  ember_tensor_info info;
  ember_tensor_info_init(&info);
  ASSERT_EQ(ember_method_input_info(method.m, 0, &info), EMBER_OK);
  EXPECT_EQ(info.kind, EMBER_KIND_TENSOR);
  EXPECT_EQ(info.dtype, EMBER_DTYPE_FLOAT);
  EXPECT_EQ(info.dynamic, 0);
  ASSERT_EQ(info.rank, 2u);
  EXPECT_EQ(info.sizes[0], 4);
  EXPECT_EQ(info.sizes[1], 16);
  EXPECT_EQ(info.min_sizes[0], 4);  // static: the range is the size
  EXPECT_EQ(info.max_sizes[1], 16);
  EXPECT_EQ(info.nbytes, 256u);
  ASSERT_EQ(ember_method_output_info(method.m, 0, &info), EMBER_OK);
  EXPECT_EQ(info.sizes[1], 10);
  EXPECT_EQ(ember_method_input_info(method.m, 1, &info), EMBER_INVALID_ARGUMENT);
  EXPECT_EQ(ember_method_output_info(method.m, 0, nullptr), EMBER_INVALID_ARGUMENT);
}

TEST(CapiTest, DynamicBatchBoundsResizeAndRun) {
  Program program;
  Method method;
  open("mlp_dynamic_batch.pte", nullptr, &program, &method);
  ember_tensor_info info;
  ember_tensor_info_init(&info);
  ASSERT_EQ(ember_method_input_info(method.m, 0, &info), EMBER_OK);
  EXPECT_NE(info.dynamic, 0);
  EXPECT_EQ(info.min_sizes[0], 1);  // Dim("batch", min=1, max=64) in the generator
  EXPECT_EQ(info.max_sizes[0], 64);
  EXPECT_EQ(info.min_sizes[1], 0);  // the .pte cannot say that dim 1 of a dynamic tensor is fixed
  EXPECT_EQ(info.max_sizes[1], 16);
  EXPECT_EQ(info.max_nbytes, 64u * 16 * 4);
  // The manifest's cases: batch 4 (default), 1, 17, 64.
  const int64_t batches[] = {4, 1, 17, 64};
  const char* suffix[] = {"", ".case1", ".case2", ".case3"};
  for (int c = 0; c < 4; ++c) {
    const std::string base =
        std::string(kFixtures) + "mlp_dynamic_batch.core_aten.torch2_6" + suffix[c];
    const int64_t sizes[2] = {batches[c], 16};
    ASSERT_EQ(ember_method_resize_input(method.m, 0, sizes, 2), EMBER_OK)
        << ember_method_last_error(method.m);
    const std::vector<uint8_t> input = read_file(base + ".input0.bin");
    ASSERT_EQ(ember_method_set_input(method.m, 0, EMBER_DTYPE_FLOAT, input.data(), input.size()),
              EMBER_OK)
        << ember_method_last_error(method.m);
    ASSERT_EQ(ember_method_execute(method.m), EMBER_OK) << ember_method_last_error(method.m);
    ember_value out;
    ember_value_init(&out);
    ASSERT_EQ(ember_method_output(method.m, 0, &out), EMBER_OK);
    EXPECT_EQ(out.sizes[0], batches[c]);
    expect_close(out, read_floats(base + ".output0.bin"));
  }
  const int64_t too_big[2] = {65, 16};
  EXPECT_EQ(ember_method_resize_input(method.m, 0, too_big, 2), EMBER_INVALID_ARGUMENT);
  EXPECT_NE(std::string(ember_method_last_error(method.m)).find("allowed range [1, 64]"),
            std::string::npos)
      << ember_method_last_error(method.m);
  const int64_t too_small[2] = {0, 16};
  EXPECT_EQ(ember_method_resize_input(method.m, 0, too_small, 2), EMBER_INVALID_ARGUMENT);
  EXPECT_EQ(ember_method_resize_input(method.m, 0, too_big, 3), EMBER_INVALID_ARGUMENT);  // rank
  EXPECT_EQ(ember_method_resize_input(method.m, 0, nullptr, 2), EMBER_INVALID_ARGUMENT);
  const int64_t negative[2] = {-1, 16};
  EXPECT_EQ(ember_method_resize_input(method.m, 0, negative, 2), EMBER_INVALID_ARGUMENT);
}

TEST(CapiTest, SeveralOutputsIncludingBool) {
  Program program;
  Method method;
  open("buffers_consts.pte", nullptr, &program, &method);
  const std::string base = std::string(kFixtures) + "buffers_consts.core_aten.torch2_6";
  for (size_t i = 0; i < 2; ++i) {
    const std::vector<uint8_t> input = read_file(base + ".input" + std::to_string(i) + ".bin");
    ASSERT_EQ(ember_method_set_input(method.m, i, EMBER_DTYPE_FLOAT, input.data(), input.size()),
              EMBER_OK)
        << ember_method_last_error(method.m);
  }
  ASSERT_EQ(ember_method_execute(method.m), EMBER_OK) << ember_method_last_error(method.m);
  ASSERT_EQ(ember_method_output_count(method.m), 3u);
  ember_value out;
  ember_value_init(&out);
  ASSERT_EQ(ember_method_output(method.m, 0, &out), EMBER_OK);
  expect_close(out, read_floats(base + ".output0.bin"));
  ASSERT_EQ(ember_method_output(method.m, 1, &out), EMBER_OK);
  EXPECT_EQ(out.dtype, EMBER_DTYPE_BOOL);
  const std::vector<uint8_t> bools = read_file(base + ".output1.bin");
  ASSERT_EQ(out.nbytes, bools.size());
  EXPECT_EQ(std::memcmp(out.data, bools.data(), bools.size()), 0);
  ASSERT_EQ(ember_method_output(method.m, 2, &out), EMBER_OK);
  expect_close(out, read_floats(base + ".output2.bin"));
}

TEST(CapiTest, BadInputsAreNamedErrors) {
  Program program;
  Method method;
  open("mlp.pte", nullptr, &program, &method);
  std::vector<float> input(64, 1.0f);
  EXPECT_EQ(ember_method_set_input(method.m, 0, EMBER_DTYPE_FLOAT, input.data(), 255),
            EMBER_INVALID_ARGUMENT);
  EXPECT_STREQ(ember_method_last_error(method.m),
               "input 0 expects float32[4,16] (256 bytes), got 255 bytes");
  EXPECT_STREQ(ember_last_error_message(), ember_method_last_error(method.m));
  EXPECT_EQ(ember_method_set_input(method.m, 0, EMBER_DTYPE_INT64, input.data(), 256),
            EMBER_INVALID_TYPE);
  EXPECT_NE(
      std::string(ember_method_last_error(method.m)).find("expects float32[4,16], got int64 data"),
      std::string::npos)
      << ember_method_last_error(method.m);
  EXPECT_EQ(ember_method_set_input(method.m, 0, static_cast<ember_dtype>(99), input.data(), 256),
            EMBER_INVALID_TYPE);
  EXPECT_EQ(ember_method_set_input(method.m, 1, EMBER_DTYPE_FLOAT, input.data(), 256),
            EMBER_INVALID_ARGUMENT);
  EXPECT_NE(std::string(ember_method_last_error(method.m)).find("input index 1 out of range"),
            std::string::npos);
  EXPECT_EQ(ember_method_set_input(method.m, 0, EMBER_DTYPE_FLOAT, nullptr, 256),
            EMBER_INVALID_ARGUMENT);
  EXPECT_EQ(ember_method_set_input_zero_copy(method.m, 0, EMBER_DTYPE_FLOAT, input.data(), 256),
            EMBER_NOT_SUPPORTED);
  EXPECT_NE(std::string(ember_method_last_error(method.m)).find("memory-planned"),
            std::string::npos);
  ember_value out;
  ember_value_init(&out);
  EXPECT_EQ(ember_method_output(method.m, 1, &out), EMBER_INVALID_ARGUMENT);
  EXPECT_EQ(ember_method_output(method.m, 0, nullptr), EMBER_INVALID_ARGUMENT);
  ember_value uninitialised;
  std::memset(&uninitialised, 0, sizeof(uninitialised));  // struct_size 0: not initialised
  EXPECT_EQ(ember_method_output(method.m, 0, &uninitialised), EMBER_INVALID_ARGUMENT);
  ember_profile_entry entry;
  ember_profile_entry_init(&entry);
  EXPECT_EQ(ember_method_profile_entry(method.m, 1000, &entry), EMBER_INVALID_ARGUMENT);
  // A good call still works after all that.
  ASSERT_EQ(ember_method_set_input(method.m, 0, EMBER_DTYPE_FLOAT, input.data(), 256), EMBER_OK);
  EXPECT_EQ(ember_method_execute(method.m), EMBER_OK);
}

TEST(CapiTest, NullHandlesAndArguments) {
  EXPECT_EQ(ember_program_load_file(nullptr, nullptr, nullptr), EMBER_INVALID_ARGUMENT);
  ember_program* p = reinterpret_cast<ember_program*>(1);
  EXPECT_EQ(ember_program_load_file(nullptr, nullptr, &p), EMBER_INVALID_ARGUMENT);
  EXPECT_EQ(p, nullptr);
  EXPECT_EQ(ember_program_load_file("tests/embedding/mlp.pte", nullptr, nullptr),
            EMBER_INVALID_ARGUMENT);
  EXPECT_EQ(ember_program_load_buffer(nullptr, 10, nullptr, &p), EMBER_INVALID_ARGUMENT);
  EXPECT_EQ(ember_method_create(nullptr, "forward", nullptr, nullptr), EMBER_INVALID_ARGUMENT);
  ember_method* m = nullptr;
  EXPECT_EQ(ember_method_create(nullptr, "forward", nullptr, &m), EMBER_INVALID_ARGUMENT);
  EXPECT_EQ(ember_method_set_input(nullptr, 0, EMBER_DTYPE_FLOAT, nullptr, 0),
            EMBER_INVALID_ARGUMENT);
  EXPECT_STREQ(ember_last_error_message(), "method is NULL");
  EXPECT_EQ(ember_method_execute(nullptr), EMBER_INVALID_ARGUMENT);
  EXPECT_EQ(ember_method_output(nullptr, 0, nullptr), EMBER_INVALID_ARGUMENT);
  EXPECT_EQ(ember_method_input_info(nullptr, 0, nullptr), EMBER_INVALID_ARGUMENT);
  EXPECT_EQ(ember_method_set_profiling(nullptr, 1), EMBER_INVALID_ARGUMENT);
  EXPECT_EQ(ember_method_input_count(nullptr), 0u);
  EXPECT_EQ(ember_program_method_count(nullptr), 0u);
  EXPECT_STREQ(ember_method_last_error(nullptr), "");
  EXPECT_STREQ(ember_program_last_error(nullptr), "");
  ember_program_destroy(nullptr);
  ember_method_destroy(nullptr);
  ember_program_options bad;
  std::memset(&bad, 0, sizeof(bad));
  EXPECT_EQ(ember_program_load_file("tests/embedding/mlp.pte", &bad, &p), EMBER_INVALID_ARGUMENT);
  EXPECT_NE(std::string(ember_last_error_message()).find("struct_size"), std::string::npos);
  size_t bytes = 0;
  EXPECT_EQ(ember_method_memory_size(nullptr, "forward", nullptr, &bytes), EMBER_INVALID_ARGUMENT);
}

TEST(CapiTest, BadFiles) {
  ember_program* p = nullptr;
  EXPECT_EQ(ember_program_load_file("tests/embedding/no_such.pte", nullptr, &p), EMBER_NOT_FOUND);
  EXPECT_NE(std::string(ember_last_error_message()).find("no_such.pte"), std::string::npos);
  // A .pt2 is not a program.
  EXPECT_EQ(ember_program_load_file("tests/fixtures/pt2/mlp.core_aten.torch2_6.pt2", nullptr, &p),
            EMBER_INVALID_PROGRAM);
  EXPECT_EQ(p, nullptr);
  // Every truncation of a real program is refused (or loads a prefix that is complete).
  const std::vector<uint8_t> bytes = read_file("tests/embedding/mlp.pte");
  for (size_t cut : {size_t(0), size_t(7), size_t(32), bytes.size() / 2, bytes.size() - 1}) {
    std::vector<uint8_t> part(bytes.begin(), bytes.begin() + std::ptrdiff_t(cut));
    ember::testing::AlignedBytes aligned(part);
    const ember_status s = ember_program_load_buffer(aligned.data(), aligned.size(), nullptr, &p);
    EXPECT_NE(s, EMBER_OK) << "cut at " << cut;
    EXPECT_STRNE(ember_status_name(s), "Unknown");
    EXPECT_STRNE(ember_last_error_message(), "");
  }
  // Misaligned bytes.
  std::vector<uint8_t> shifted(bytes.size() + 1);
  std::memcpy(shifted.data() + 1, bytes.data(), bytes.size());
  ember::testing::AlignedBytes base(shifted);
  EXPECT_EQ(ember_program_load_buffer(base.data() + 1, bytes.size(), nullptr, &p),
            EMBER_INVALID_ARGUMENT);
  // A missing .ptd.
  ember_program_options options;
  ember_program_options_init(&options);
  options.data_path = "tests/embedding/missing.ptd";
  EXPECT_EQ(ember_program_load_file("tests/embedding/mlp.pte", &options, &p), EMBER_NOT_FOUND);
  EXPECT_NE(std::string(ember_last_error_message()).find("missing.ptd"), std::string::npos);
  // An unknown method.
  Program program;
  ASSERT_EQ(ember_program_load_file("tests/embedding/mlp.pte", nullptr, &program.p), EMBER_OK);
  ember_method* m = nullptr;
  EXPECT_EQ(ember_method_create(program.p, "backward", nullptr, &m), EMBER_NOT_FOUND);
  EXPECT_EQ(ember_method_create(program.p, nullptr, nullptr, &m), EMBER_INVALID_ARGUMENT);
}

void run_in_caller_memory(const char* pte) {
  Program program;
  ASSERT_EQ(ember_program_load_file(pte, nullptr, &program.p), EMBER_OK);
  ember_method_options options;
  ember_method_options_init(&options);
  options.temp_bytes = 4096;
  size_t bytes = 0;
  ASSERT_EQ(ember_method_memory_size(program.p, "forward", &options, &bytes), EMBER_OK);
  EXPECT_GT(bytes, 4096u);
  std::vector<std::max_align_t> arena(bytes / sizeof(std::max_align_t) + 1);
  options.memory = arena.data();
  options.memory_size = bytes / 2;  // too small: a named error, nothing created
  ember_method* m = nullptr;
  EXPECT_EQ(ember_method_create(program.p, "forward", &options, &m),
            EMBER_MEMORY_ALLOCATION_FAILED);
  EXPECT_EQ(m, nullptr);
  EXPECT_NE(std::string(ember_program_last_error(program.p)).find("caller memory"),
            std::string::npos)
      << ember_program_last_error(program.p);
  options.memory = reinterpret_cast<uint8_t*>(arena.data()) + 1;  // misaligned
  options.memory_size = bytes;
  EXPECT_EQ(ember_method_create(program.p, "forward", &options, &m), EMBER_INVALID_ARGUMENT);
  options.memory = arena.data();
  Method method;
  ASSERT_EQ(ember_method_create(program.p, "forward", &options, &method.m), EMBER_OK)
      << ember_program_last_error(program.p);
  EXPECT_EQ(static_cast<void*>(method.m), static_cast<void*>(arena.data()));
  const std::vector<uint8_t> input =
      read_file(std::string(kFixtures) + "mlp.core_aten.torch2_6.input0.bin");
  ASSERT_EQ(ember_method_set_input(method.m, 0, EMBER_DTYPE_FLOAT, input.data(), input.size()),
            EMBER_OK);
  ASSERT_EQ(ember_method_execute(method.m), EMBER_OK) << ember_method_last_error(method.m);
  ember_value out;
  ember_value_init(&out);
  ASSERT_EQ(ember_method_output(method.m, 0, &out), EMBER_OK);
  const uint8_t* p = static_cast<const uint8_t*>(out.data);
  EXPECT_TRUE(p >= reinterpret_cast<uint8_t*>(arena.data()) &&
              p < reinterpret_cast<uint8_t*>(arena.data()) + bytes)
      << "the output lives in the caller's arena";
  expect_close(out, read_floats(std::string(kFixtures) + "mlp.core_aten.torch2_6.output0.bin"));
}

TEST(CapiTest, CallerMemory) { run_in_caller_memory("tests/embedding/mlp.pte"); }

// The XNNPACK delegate's handle and tables come from the caller's arena too (its XNNPACK
// runtime from the heap): the sizing covers them.
TEST(CapiTest, CallerMemoryXnnpack) { run_in_caller_memory("tests/embedding/mlp_xnnpack.pte"); }

TEST(CapiTest, ProfileOfTheLastRun) {
  ember_method_options options;
  ember_method_options_init(&options);
  options.profiling = 1;
  Program program;
  Method method;
  open("mlp.pte", &options, &program, &method);
  std::vector<float> input(64, 0.5f);
  ASSERT_EQ(ember_method_set_input(method.m, 0, EMBER_DTYPE_FLOAT, input.data(), 256), EMBER_OK);
  ASSERT_EQ(ember_method_execute(method.m), EMBER_OK);
  ASSERT_EQ(ember_method_execute(method.m), EMBER_OK);
  const size_t n = ember_method_profile_count(method.m);
  ASSERT_GT(n, 0u);
  bool saw_addmm = false;
  for (size_t i = 0; i < n; ++i) {
    ember_profile_entry e;
    ember_profile_entry_init(&e);
    ASSERT_EQ(ember_method_profile_entry(method.m, i, &e), EMBER_OK);
    EXPECT_EQ(e.calls, 1u) << e.name << ": the last run only";
    saw_addmm = saw_addmm || std::string(e.name) == "aten::addmm.out";
  }
  EXPECT_TRUE(saw_addmm);
  ASSERT_EQ(ember_method_set_profiling(method.m, 0), EMBER_OK);
  ASSERT_EQ(ember_method_execute(method.m), EMBER_OK);
  ember_profile_entry e;
  ember_profile_entry_init(&e);
  ASSERT_EQ(ember_method_profile_entry(method.m, 0, &e), EMBER_OK);
  EXPECT_EQ(e.calls, 1u);  // unchanged: profiling was off
}

// out = a + alpha * b on float[2] (runtime/executor/testing/program_builder.h), with a
// unplanned (memory_id 0) and alpha (Int 1) also returned as a second output.
std::vector<uint8_t> add_program_bytes() {
  auto program = ember::testing::make_add_program();
  auto& plan = *program->execution_plan[0];
  plan.values[0] = ember::testing::make_tensor_value({2}, 0, 0);
  plan.outputs.push_back(2);
  return ember::testing::serialize(*program);
}

TEST(CapiTest, ZeroCopyInputAndIntOutput) {
  ember::testing::AlignedBytes bytes(add_program_bytes());
  Program program;
  ASSERT_EQ(ember_program_load_buffer(bytes.data(), bytes.size(), nullptr, &program.p), EMBER_OK)
      << ember_last_error_message();
  Method method;
  ASSERT_EQ(ember_method_create(program.p, "forward", nullptr, &method.m), EMBER_OK)
      << ember_program_last_error(program.p);
  ember_tensor_info info;
  ember_tensor_info_init(&info);
  ASSERT_EQ(ember_method_input_info(method.m, 0, &info), EMBER_OK);
  EXPECT_EQ(info.memory_planned, 0);
  ASSERT_EQ(ember_method_input_info(method.m, 1, &info), EMBER_OK);
  EXPECT_NE(info.memory_planned, 0);
  float a[2] = {1, 2};
  const float b[2] = {10, 20};
  ASSERT_EQ(ember_method_set_input_zero_copy(method.m, 0, EMBER_DTYPE_FLOAT, a, sizeof(a)),
            EMBER_OK)
      << ember_method_last_error(method.m);
  ASSERT_EQ(ember_method_set_input(method.m, 1, EMBER_DTYPE_FLOAT, b, sizeof(b)), EMBER_OK);
  ASSERT_EQ(ember_method_execute(method.m), EMBER_OK) << ember_method_last_error(method.m);
  ember_value out;
  ember_value_init(&out);
  ASSERT_EQ(ember_method_output(method.m, 0, &out), EMBER_OK);
  EXPECT_EQ(static_cast<const float*>(out.data)[0], 11.0f);
  EXPECT_EQ(static_cast<const float*>(out.data)[1], 22.0f);
  a[0] = 5;  // zero copy: the method reads the caller's array
  ASSERT_EQ(ember_method_execute(method.m), EMBER_OK);
  ASSERT_EQ(ember_method_output(method.m, 0, &out), EMBER_OK);
  EXPECT_EQ(static_cast<const float*>(out.data)[0], 15.0f);
  ASSERT_EQ(ember_method_output(method.m, 1, &out), EMBER_OK);
  EXPECT_EQ(out.kind, EMBER_KIND_INT);
  EXPECT_EQ(out.i, 1);
  ASSERT_EQ(ember_method_output_info(method.m, 1, &info), EMBER_OK);
  EXPECT_EQ(info.kind, EMBER_KIND_INT);
  // The unplanned input by copy: later changes to the caller's array do not matter.
  a[0] = 1;
  ASSERT_EQ(ember_method_set_input(method.m, 0, EMBER_DTYPE_FLOAT, a, sizeof(a)), EMBER_OK);
  a[0] = 100;
  ASSERT_EQ(ember_method_execute(method.m), EMBER_OK);
  ASSERT_EQ(ember_method_output(method.m, 0, &out), EMBER_OK);
  EXPECT_EQ(static_cast<const float*>(out.data)[0], 11.0f);
}

TEST(CapiTest, SetInputValue) {
  auto program_t = ember::testing::make_add_program();
  program_t->execution_plan[0]->inputs.push_back(2);  // alpha (Int 1) becomes input 2
  ember::testing::AlignedBytes bytes(ember::testing::serialize(*program_t));
  Program program;
  ASSERT_EQ(ember_program_load_buffer(bytes.data(), bytes.size(), nullptr, &program.p), EMBER_OK);
  Method method;
  ASSERT_EQ(ember_method_create(program.p, "forward", nullptr, &method.m), EMBER_OK);
  const float a[2] = {1, 2}, b[2] = {3, 4};
  ember_value v;
  ember_value_init(&v);
  v.kind = EMBER_KIND_TENSOR;
  v.dtype = EMBER_DTYPE_FLOAT;
  v.rank = 1;
  v.sizes[0] = 2;
  v.data = a;
  v.nbytes = sizeof(a);
  ASSERT_EQ(ember_method_set_input_value(method.m, 0, &v), EMBER_OK)
      << ember_method_last_error(method.m);
  v.data = b;
  ASSERT_EQ(ember_method_set_input_value(method.m, 1, &v), EMBER_OK);
  v.sizes[0] = 3;  // a static input cannot change shape
  EXPECT_EQ(ember_method_set_input_value(method.m, 1, &v), EMBER_NOT_SUPPORTED)
      << ember_method_last_error(method.m);
  ember_value alpha;
  ember_value_init(&alpha);
  alpha.kind = EMBER_KIND_INT;
  alpha.i = 2;  // baked in as 1
  EXPECT_EQ(ember_method_set_input_value(method.m, 2, &alpha), EMBER_INVALID_ARGUMENT);
  EXPECT_NE(std::string(ember_method_last_error(method.m)).find("baked in at export"),
            std::string::npos);
  alpha.i = 1;
  ASSERT_EQ(ember_method_set_input_value(method.m, 2, &alpha), EMBER_OK);
  alpha.kind = EMBER_KIND_DOUBLE;
  EXPECT_EQ(ember_method_set_input_value(method.m, 2, &alpha),
            EMBER_INVALID_ARGUMENT);  // an Int slot
  EXPECT_EQ(ember_method_set_input_value(method.m, 2, nullptr), EMBER_INVALID_ARGUMENT);
  ASSERT_EQ(ember_method_execute(method.m), EMBER_OK) << ember_method_last_error(method.m);
  ember_value out;
  ember_value_init(&out);
  ASSERT_EQ(ember_method_output(method.m, 0, &out), EMBER_OK);
  EXPECT_EQ(static_cast<const float*>(out.data)[0], 4.0f);
  EXPECT_EQ(static_cast<const float*>(out.data)[1], 6.0f);
}

// Outputs the program does not plan: storage from the method by default, or the caller's.
TEST(CapiTest, UnplannedOutput) {
  auto program_t = ember::testing::make_add_program();
  program_t->execution_plan[0]->values[3] = ember::testing::make_tensor_value({2}, 0, 0);
  ember::testing::AlignedBytes bytes(ember::testing::serialize(*program_t));
  Program program;
  ASSERT_EQ(ember_program_load_buffer(bytes.data(), bytes.size(), nullptr, &program.p), EMBER_OK);
  Method method;
  ASSERT_EQ(ember_method_create(program.p, "forward", nullptr, &method.m), EMBER_OK)
      << ember_program_last_error(program.p);
  const float a[2] = {1, 2}, b[2] = {3, 4};
  ASSERT_EQ(ember_method_set_input(method.m, 0, EMBER_DTYPE_FLOAT, a, sizeof(a)), EMBER_OK);
  ASSERT_EQ(ember_method_set_input(method.m, 1, EMBER_DTYPE_FLOAT, b, sizeof(b)), EMBER_OK);
  ASSERT_EQ(ember_method_execute(method.m), EMBER_OK) << ember_method_last_error(method.m);
  ember_value out;
  ember_value_init(&out);
  ASSERT_EQ(ember_method_output(method.m, 0, &out), EMBER_OK);
  EXPECT_EQ(static_cast<const float*>(out.data)[1], 6.0f);
  float mine[2] = {0, 0};
  EXPECT_EQ(ember_method_set_output_buffer(method.m, 0, mine, 4), EMBER_INVALID_ARGUMENT);  // small
  EXPECT_EQ(ember_method_set_output_buffer(method.m, 0, nullptr, 8), EMBER_INVALID_ARGUMENT);
  EXPECT_EQ(ember_method_set_output_buffer(method.m, 1, mine, 8), EMBER_INVALID_ARGUMENT);  // index
  ASSERT_EQ(ember_method_set_output_buffer(method.m, 0, mine, sizeof(mine)), EMBER_OK);
  ASSERT_EQ(ember_method_execute(method.m), EMBER_OK);
  EXPECT_EQ(mine[0], 4.0f);
  EXPECT_EQ(mine[1], 6.0f);
  ASSERT_EQ(ember_method_output(method.m, 0, &out), EMBER_OK);
  EXPECT_EQ(out.data, static_cast<const void*>(mine));
  // A planned output cannot be redirected.
  Program planned;
  Method planned_method;
  open("mlp.pte", nullptr, &planned, &planned_method);
  float big[40];
  EXPECT_EQ(ember_method_set_output_buffer(planned_method.m, 0, big, sizeof(big)),
            EMBER_INVALID_STATE);
}

// An older caller's struct (only struct_size and kind) is written no further than its size.
TEST(CapiTest, SmallerStructsFromOlderHeaders) {
  ember::testing::AlignedBytes bytes(add_program_bytes());
  Program program;
  ASSERT_EQ(ember_program_load_buffer(bytes.data(), bytes.size(), nullptr, &program.p), EMBER_OK);
  Method method;
  ASSERT_EQ(ember_method_create(program.p, "forward", nullptr, &method.m), EMBER_OK);
  struct OldValue {
    size_t struct_size;
    ember_kind kind;
  };
  struct {
    OldValue v;
    unsigned char guard[64];
  } old;
  std::memset(&old, 0xAB, sizeof(old));
  old.v.struct_size = sizeof(OldValue);
  ASSERT_EQ(ember_method_output(method.m, 1, reinterpret_cast<ember_value*>(&old.v)), EMBER_OK);
  EXPECT_EQ(old.v.kind, EMBER_KIND_INT);
  for (unsigned char c : old.guard) ASSERT_EQ(c, 0xAB);
}

// Issue #33: a program under 1 KiB planning 15 GB was reserved by the C API with no way to
// bound it but a caller arena. ember_method_options.max_planned_memory_bytes bounds a
// runtime-owned method (0: EMBER_DEFAULT_MAX_PLANNED_MEMORY); a plan over it is refused by
// ember_method_create and ember_method_memory_size before anything is reserved, naming the
// plan and the option; a raised budget lets the same program through.
TEST(CapiTest, PlannedMemoryBudgetIsAnOption) {
  ember_method_options o;
  ember_method_options_init(&o);
  EXPECT_EQ(o.max_planned_memory_bytes, 0u);
  EXPECT_EQ(EMBER_DEFAULT_MAX_PLANNED_MEMORY, uint64_t(8) << 30);
  // add.pte's plan plus a 15 GB buffer: refused with the default budget.
  auto program_t = ember::testing::make_add_program();
  program_t->execution_plan[0]->non_const_buffer_sizes.push_back(int64_t{15} * 1000 * 1000 * 1000);
  ember::testing::AlignedBytes huge(ember::testing::serialize(*program_t));
  ASSERT_LT(huge.size(), 1024u);
  Program big;
  ASSERT_EQ(ember_program_load_buffer(huge.data(), huge.size(), nullptr, &big.p), EMBER_OK);
  Method m;
  EXPECT_EQ(ember_method_create(big.p, "forward", nullptr, &m.m), EMBER_MEMORY_ALLOCATION_FAILED);
  EXPECT_EQ(m.m, nullptr);
  std::string msg = ember_last_error_message();
  EXPECT_NE(msg.find("ember_method_options.max_planned_memory_bytes 8589934592"), std::string::npos) << msg;
  EXPECT_NE(msg.find("15000000"), std::string::npos) << msg;  // the plan's total is named
  size_t bytes = 1;
  EXPECT_EQ(ember_method_memory_size(big.p, "forward", nullptr, &bytes), EMBER_MEMORY_ALLOCATION_FAILED);
  EXPECT_EQ(bytes, 0u);
  // A small plan (the add program's own plus 4096 bytes) against budgets just under and at it.
  program_t = ember::testing::make_add_program();
  uint64_t plan = 4096;
  for (int64_t b : program_t->execution_plan[0]->non_const_buffer_sizes) plan += uint64_t(b);
  program_t->execution_plan[0]->non_const_buffer_sizes.push_back(4096);
  ember::testing::AlignedBytes small(ember::testing::serialize(*program_t));
  Program p;
  ASSERT_EQ(ember_program_load_buffer(small.data(), small.size(), nullptr, &p.p), EMBER_OK);
  o.max_planned_memory_bytes = plan - 1;
  EXPECT_EQ(ember_method_create(p.p, "forward", &o, &m.m), EMBER_MEMORY_ALLOCATION_FAILED);
  msg = ember_last_error_message();
  EXPECT_NE(msg.find("ember_method_options.max_planned_memory_bytes " + std::to_string(plan - 1)),
            std::string::npos) << msg;
  o.max_planned_memory_bytes = plan;
  ASSERT_EQ(ember_method_create(p.p, "forward", &o, &m.m), EMBER_OK) << ember_last_error_message();
  const float a[2] = {1, 2}, b[2] = {10, 20};
  ASSERT_EQ(ember_method_set_input(m.m, 0, EMBER_DTYPE_FLOAT, a, sizeof(a)), EMBER_OK) << ember_last_error_message();
  ASSERT_EQ(ember_method_set_input(m.m, 1, EMBER_DTYPE_FLOAT, b, sizeof(b)), EMBER_OK) << ember_last_error_message();
  ASSERT_EQ(ember_method_execute(m.m), EMBER_OK) << ember_last_error_message();
  ember_value out;
  ember_value_init(&out);
  ASSERT_EQ(ember_method_output(m.m, 0, &out), EMBER_OK);
  EXPECT_EQ(static_cast<const float*>(out.data)[1], 22.0f);
}

// Issue #33: a double destroy, a call on a destroyed handle and destroying a program before
// its methods were undefined behaviour. Now: named errors (or, for destroy, a no-op with a
// message); a destroyed handle is never dereferenced (ASan would report it).
TEST(CapiTest, DestroyedHandlesAreRefusedNotDereferenced) {
  ember_program* p = nullptr;
  ASSERT_EQ(ember_program_load_file("tests/embedding/mlp.pte", nullptr, &p), EMBER_OK);
  ember_method* m = nullptr;
  ASSERT_EQ(ember_method_create(p, "forward", nullptr, &m), EMBER_OK);
  ember_method_destroy(m);
  ember_method_destroy(m);
  EXPECT_NE(std::string(ember_last_error_message()).find("is not a live ember_method handle"), std::string::npos)
      << ember_last_error_message();
  EXPECT_EQ(ember_method_execute(m), EMBER_INVALID_ARGUMENT);
  EXPECT_NE(std::string(ember_last_error_message()).find("already destroyed"), std::string::npos);
  EXPECT_EQ(ember_method_set_input(m, 0, EMBER_DTYPE_FLOAT, nullptr, 0), EMBER_INVALID_ARGUMENT);
  EXPECT_EQ(ember_method_set_profiling(m, 1), EMBER_INVALID_ARGUMENT);
  EXPECT_EQ(ember_method_output_count(m), 0u);
  EXPECT_EQ(ember_method_profile_count(m), 0u);
  EXPECT_STREQ(ember_method_last_error(m), "");
  ember_program_destroy(p);
  ember_program_destroy(p);
  EXPECT_NE(std::string(ember_last_error_message()).find("is not a live ember_program handle"), std::string::npos);
  EXPECT_EQ(ember_program_method_count(p), 0u);
  EXPECT_STREQ(ember_program_last_error(p), "");
  const char* name = nullptr;
  EXPECT_EQ(ember_program_method_name(p, 0, &name), EMBER_INVALID_ARGUMENT);
  ember_method* again = nullptr;
  EXPECT_EQ(ember_method_create(p, "forward", nullptr, &again), EMBER_INVALID_ARGUMENT);
  EXPECT_EQ(again, nullptr);
  size_t bytes = 0;
  EXPECT_EQ(ember_method_memory_size(p, "forward", nullptr, &bytes), EMBER_INVALID_ARGUMENT);
  // A pointer that was never a handle.
  int not_a_handle = 0;
  EXPECT_EQ(ember_method_execute(reinterpret_cast<ember_method*>(&not_a_handle)), EMBER_INVALID_ARGUMENT);
  ember_method_destroy(reinterpret_cast<ember_method*>(&not_a_handle));
  ember_program_destroy(reinterpret_cast<ember_program*>(&not_a_handle));
  EXPECT_EQ(not_a_handle, 0);
}

TEST(CapiTest, ProgramDestroyedBeforeItsMethodsLivesUntilTheLastOne) {
  ember_program* p = nullptr;
  ASSERT_EQ(ember_program_load_file("tests/embedding/mlp.pte", nullptr, &p), EMBER_OK);
  ember_method *a = nullptr, *b = nullptr;
  ASSERT_EQ(ember_method_create(p, "forward", nullptr, &a), EMBER_OK);
  ASSERT_EQ(ember_method_create(p, "forward", nullptr, &b), EMBER_OK);
  ember_program_destroy(p);  // deferred: two methods still use it
  EXPECT_EQ(ember_program_method_count(p), 0u);  // but the handle is gone at once
  const std::vector<uint8_t> input = read_file(std::string(kFixtures) + "mlp.core_aten.torch2_6.input0.bin");
  const std::vector<float> ref = read_floats(std::string(kFixtures) + "mlp.core_aten.torch2_6.output0.bin");
  for (ember_method* m : {a, b}) {
    ASSERT_EQ(ember_method_set_input(m, 0, EMBER_DTYPE_FLOAT, input.data(), input.size()), EMBER_OK);
    ASSERT_EQ(ember_method_execute(m), EMBER_OK) << ember_method_last_error(m);
    ember_value out;
    ember_value_init(&out);
    ASSERT_EQ(ember_method_output(m, 0, &out), EMBER_OK);
    expect_close(out, ref);
    ember_method_destroy(m);  // the second frees the program (LeakSanitizer checks it is freed)
  }
}

// Two threads on one method (the contract is one thread at a time): each call either runs or
// is InvalidState naming the misuse; never a data race (the test is tagged for TSan) or a crash.
TEST(CapiTest, OneMethodFromTwoThreadsIsInvalidStateNotARace) {
  Program program;
  Method method;
  open("mlp.pte", nullptr, &program, &method);
  const std::vector<uint8_t> input = read_file(std::string(kFixtures) + "mlp.core_aten.torch2_6.input0.bin");
  std::vector<int> refused(2, 0), other(2, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t) {
    threads.emplace_back([&, t] {
      for (int run = 0; run < 2000; ++run) {
        for (ember_status s : {ember_method_set_input(method.m, 0, EMBER_DTYPE_FLOAT, input.data(), input.size()),
                               ember_method_execute(method.m)}) {
          if (s == EMBER_INVALID_STATE) {
            ++refused[size_t(t)];
          } else if (s != EMBER_OK) {
            ++other[size_t(t)];
          }
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(other[0] + other[1], 0);
  std::printf("concurrent calls refused with InvalidState: %d\n", refused[0] + refused[1]);
}

TEST(CapiTest, MethodsOnSeveralThreadsShareOneProgram) {
  Program program;
  ASSERT_EQ(ember_program_load_file("tests/embedding/mlp.pte", nullptr, &program.p), EMBER_OK);
  const std::vector<uint8_t> input =
      read_file(std::string(kFixtures) + "mlp.core_aten.torch2_6.input0.bin");
  const std::vector<float> ref =
      read_floats(std::string(kFixtures) + "mlp.core_aten.torch2_6.output0.bin");
  std::vector<std::thread> threads;
  std::vector<int> ok(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      ember_method* m = nullptr;
      if (ember_method_create(program.p, "forward", nullptr, &m) != EMBER_OK) return;
      bool good = true;
      for (int run = 0; run < 20 && good; ++run) {
        good = ember_method_set_input(m, 0, EMBER_DTYPE_FLOAT, input.data(), input.size()) ==
                   EMBER_OK &&
               ember_method_execute(m) == EMBER_OK;
        ember_value out;
        ember_value_init(&out);
        good = good && ember_method_output(m, 0, &out) == EMBER_OK && out.nbytes == ref.size() * 4;
        const auto* got = static_cast<const float*>(out.data);
        for (size_t i = 0; good && i < ref.size(); ++i)
          good = std::fabs(got[i] - ref[i]) <= 1e-5f + 1e-4f * std::fabs(ref[i]);
      }
      ember_method_destroy(m);
      ok[size_t(t)] = good ? 1 : 0;
    });
  }
  for (std::thread& t : threads) t.join();
  for (int t = 0; t < 4; ++t) EXPECT_EQ(ok[size_t(t)], 1) << "thread " << t;
}

}  // namespace
