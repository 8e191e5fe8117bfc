// executor_runner's input handling on the runner_inputs_fuzz target's fixed program
// (out = a + b, float[2] bounds): the hostile cases of issue #16 by hand, then fixed-seed
// random inputs through the fuzz entry point. Each ends in outputs or a named error.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>

#include "runtime/core/diagnostics.h"
#include "apps/diagnostics/npy.h"
#include "tests/fuzz/runner_inputs_fuzz.h"

namespace ember::fuzz {
namespace {

using runtime::Error;

std::string message() { return runtime::last_error_message(); }

std::string temp_file(const std::string& name, size_t bytes) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string path = std::string(tmp ? tmp : "/tmp") + "/" + name;
  FILE* f = std::fopen(path.c_str(), "wb");
  for (size_t i = 0; i < bytes; ++i) std::fputc(0, f);
  std::fclose(f);
  return path;
}

TEST(RunnerInputsTest, OnesWithoutFilesAndExactFilesRun) {
  EXPECT_EQ(run_with_runner_inputs("", {}), Error::Ok) << message();
  const std::string eight = temp_file("eight.bin", 8);
  EXPECT_EQ(run_with_runner_inputs("", {eight, eight}), Error::Ok) << message();
  const std::string four = temp_file("four.bin", 4);
  EXPECT_EQ(run_with_runner_inputs("1;1", {four, four}), Error::Ok) << message();
}

TEST(RunnerInputsTest, HostileInputsAreNamedErrors) {
  const std::string eight = temp_file("eight.bin", 8);
  const std::string big = temp_file("big.bin", 4096);
  struct Case {
    std::string shapes;
    std::vector<std::string> files;
    const char* expect;
  } cases[] = {
      {"", {eight}, "--inputs gives 1 files"},
      {"", {eight, "/dev/zero"}, "input 1"},
      {"", {eight, "/"}, "input 1"},
      {"", {eight, big}, "has 4096 bytes, the input needs 8"},
      {"", {eight, "/nonexistent/x.bin"}, "input 1"},
      {"a,b", {}, "--input_shapes 'a,b' is malformed: shape 0 dim 0 is 'a', not a number"},
      {"1,1099511627776,64", {}, "--input_shapes: shape 0 dim 1 is 1099511627776, outside [0, 2147483647]"},
      {"", {eight, big}, "at its upper bound [2]; the input is dynamic: give its actual shape with --input_shapes"},
      {"2000000000;2", {}, "input 0 dim 0 is 2000000000, allowed range [0, 2]"},
      {"3;1", {}, "input 0 dim 0 is 3"},
      {"1,1;1", {}, "input 0 has rank 1, shape given has 2"},
      {"1;1;1", {}, "--input_shapes gives 3 shapes"},
  };
  for (const Case& c : cases) {
    runtime::clear_error_message();
    EXPECT_NE(run_with_runner_inputs(c.shapes, c.files), Error::Ok) << c.shapes;
    EXPECT_NE(message().find(c.expect), std::string::npos) << c.shapes << ": " << message();
  }
}

TEST(RunnerInputsTest, RandomInputsEndInOutputsOrANamedError) {
  std::mt19937 rng(7);
  const char alphabet[] = "0123456789,;-\n 2";
  size_t ok = 0;
  for (int i = 0; i < 3000; ++i) {
    std::vector<uint8_t> in(1 + rng() % 40);
    in[0] = uint8_t(rng());
    for (size_t k = 1; k < in.size(); ++k) {
      in[k] = rng() % 3 == 0 ? uint8_t(rng()) : uint8_t(alphabet[rng() % (sizeof(alphabet) - 1)]);
    }
    runtime::clear_error_message();
    const Error e = runner_inputs_fuzz_input(in.data(), in.size());
    if (e == Error::Ok) {
      ++ok;
    } else {
      EXPECT_NE(message(), "") << "input " << i << ": " << runtime::error_name(e) << " without a message";
    }
  }
  EXPECT_GT(ok, 10u);
}

// .npy inputs: a valid float32[2] file runs; mutated copies of it (bytes flipped anywhere,
// truncated, extended) end in outputs or a named error, through the reader and the input
// checks (dtype, shape within bounds).
TEST(RunnerInputsTest, MutatedNpyInputsEndInOutputsOrANamedError) {
  const int32_t two = 2;
  std::string good = runtime::npy_header(runtime::ScalarType::Float, runtime::Span<const int32_t>(&two, 1));
  good.append(8, '\0');
  auto write = [](const std::string& name, const std::string& bytes) {
    const char* tmp = std::getenv("TEST_TMPDIR");
    const std::string path = std::string(tmp ? tmp : "/tmp") + "/" + name;
    FILE* f = std::fopen(path.c_str(), "wb");
    std::fwrite(bytes.data(), 1, bytes.size(), f);
    std::fclose(f);
    return path;
  };
  const std::string valid = write("valid.npy", good);
  EXPECT_EQ(run_with_runner_inputs("", {valid, valid}), Error::Ok) << message();
  std::mt19937 rng(11);
  size_t ok = 0;
  for (int i = 0; i < 400; ++i) {  // ~6 s under ASan on a loaded 2-core machine
    std::string bad = good;
    const int flips = 1 + int(rng() % 3);
    for (int k = 0; k < flips; ++k) {
      // Mostly inside the dict (bytes 10..70), where the parser works hardest.
      const size_t at = rng() % 2 ? 10 + rng() % 60 : rng() % bad.size();
      bad[at] = rng() % 2 ? char(rng()) : "0123456789(),' :{}TF<|fi"[rng() % 25];
    }
    if (rng() % 8 == 0) bad.resize(rng() % bad.size());
    if (rng() % 8 == 0) bad.append(rng() % 9, 'x');
    const std::string path = write("mutated.npy", bad);
    runtime::clear_error_message();
    const Error e = run_with_runner_inputs("", {path, valid});
    if (e == Error::Ok) {
      ++ok;
    } else {
      EXPECT_NE(message(), "") << "mutation " << i << ": " << runtime::error_name(e) << " without a message";
    }
  }
  EXPECT_GT(ok, 2u);  // some flips land in padding or data and still run
}

}  // namespace
}  // namespace ember::fuzz
