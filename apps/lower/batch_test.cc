// parse_batch_jobs: the batch file's entries become lower's command lines (flags by name,
// lists repeated, objects as KEY=VALUE in key order), and bad files give InvalidArgument
// naming the entry. Expected command lines are written out by hand from batch.h's rules.
#include "apps/lower/batch.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

namespace ember::aot {
namespace {

TEST(BatchTest, EntriesBecomeLowerCommandLines) {
  auto jobs = parse_batch_jobs(R"([
    {"input": "a.pt2", "output": "a.pte", "recipe": "xnnpack"},
    {"output": "b.pte", "input": "dir/b.pt2", "recipe": "xnnpack-int8", "calibrate": ["c0.bin", "c1.bin"],
     "compile_spec": {"z.k": "1", "xnnpack.constants": "inline"}, "verbose": true}
  ])");
  ASSERT_TRUE(jobs.ok()) << format_error(jobs.error());
  ASSERT_EQ(jobs->size(), 2u);
  EXPECT_EQ((*jobs)[0].index, 0u);
  EXPECT_EQ((*jobs)[0].args, (std::vector<std::string>{"a.pt2", "-o", "a.pte", "--recipe=xnnpack"}));
  EXPECT_EQ((*jobs)[1].input, "dir/b.pt2");
  EXPECT_EQ((*jobs)[1].args,
            (std::vector<std::string>{"dir/b.pt2", "-o", "b.pte", "--calibrate=c0.bin", "--calibrate=c1.bin",
                                      "--compile_spec=xnnpack.constants=inline", "--compile_spec=z.k=1",
                                      "--recipe=xnnpack-int8", "--verbose=true"}));
}

TEST(BatchTest, BadFilesNameTheEntry) {
  struct Case {
    const char* json;
    const char* says;
  } cases[] = {
      {"{", "not valid JSON"},
      {R"({"input": "a.pt2"})", "JSON list"},
      {R"([{"input": "a.pt2", "output": "a.pte"}, 3])", "entry 1: expected an object"},
      {R"([{"output": "a.pte"}])", "entry 0: 'input'"},
      {R"([{"input": "a.pt2", "output": ""}])", "entry 0: 'output'"},
      {R"([{"input": "a.pt2", "output": "x.pte"}, {"input": "b.pt2", "output": "x.pte"}])",
       "entry 1: output 'x.pte' is also"},
      {R"([{"input": "a.pt2", "output": "a.pte", "o": "b.pte"}])", "entry 0: 'o' cannot"},
      {R"([{"input": "a.pt2", "output": "a.pte", "pass": [["x"]]}])", "entry 0: 'pass'"},
      {R"([{"input": "a.pt2", "output": "a.pte", "recipe": null}])", "entry 0: 'recipe' is null"},
      // Issue #33: the key "o=x" became --o=x=... and redirected the output.
      {R"([{"input": "a.pt2", "output": "a.pte", "o=x": "y"}])", "entry 0: unknown key 'o=x'"},
      {R"([{"input": "a.pt2", "output": "a.pte", "recipie": "xnnpack"}])", "entry 0: unknown key 'recipie'"},
  };
  for (const Case& c : cases) {
    auto jobs = parse_batch_jobs(c.json);
    ASSERT_FALSE(jobs.ok()) << c.json;
    EXPECT_EQ(jobs.error(), Error::InvalidArgument) << c.json;
    EXPECT_NE(format_error(jobs.error()).find(c.says), std::string::npos)
        << c.json << " -> " << format_error(jobs.error());
  }
}

// Issue #33: the summary reported success for a file that did not exist.
TEST(BatchTest, AMissingOrNonRegularOutputIsNotSuccess) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  ASSERT_NE(tmp, nullptr);
  const std::string missing = std::string(tmp) + "/never_written.pte";
  EXPECT_EQ(check_batch_output(missing), Error::NotFound);
  EXPECT_NE(format_error(Error::NotFound).find("does not exist"), std::string::npos);
  EXPECT_EQ(check_batch_output(tmp), Error::AccessFailed);  // a directory
  const std::string file = std::string(tmp) + "/written.pte";
  std::FILE* f = std::fopen(file.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  std::fputs("x", f);
  std::fclose(f);
  EXPECT_EQ(check_batch_output(file), Error::Ok);
}

TEST(BatchTest, EmptyListIsNoJobs) {
  auto jobs = parse_batch_jobs("[]");
  ASSERT_TRUE(jobs.ok());
  EXPECT_TRUE(jobs->empty());
}

TEST(BatchTest, RecognisesTheFlag) {
  char a0[] = "lower", a1[] = "--batch=x.json", a2[] = "--batch", a3[] = "--batchy";
  char* with_eq[] = {a0, a1};
  char* separate[] = {a0, a2};
  char* other[] = {a0, a3};
  EXPECT_TRUE(is_batch_invocation(2, with_eq));
  EXPECT_TRUE(is_batch_invocation(2, separate));
  EXPECT_FALSE(is_batch_invocation(2, other));
}

}  // namespace
}  // namespace ember::aot
