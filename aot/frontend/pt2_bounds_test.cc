// Issue #33's reproductions for the .pt2 reader's bounds, each on the exact crafted input
// (built here from the committed mlp fixtures): JSON nested 200k and 1M levels deep in a
// node's stack_trace (segfaulted in a recursive copy), unreferenced 256 MiB zero-length
// weight records and unreferenced compressed records (read in full although the graph never
// names them), a cap on everything one read allocates, an archive naming model.json twice
// (libzip read the first copy, Python's zipfile the last), a FIFO given as the .pt2 (open()
// blocked forever) and std::bad_alloc under a memory limit (reported as "unexpected JSON
// structure"). Each must be a named error or a bounded success, never a crash or a hang.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <string>

#include "aot/frontend/json_util.h"
#include "aot/frontend/pt2_crafted.h"
#include "aot/frontend/pt2_reader.h"
#include "aot/frontend/zip_test_util.h"
#include "tests/support/shared_fixtures.h"

namespace ember::aot {
namespace {

using testing::find_entry;
using testing::replace_in;
using testing::unzip_all;
using testing::with_deep_stack_trace;
using testing::with_duplicate_entry;
using testing::with_unused_records;
using testing::zip_all;
using testing::ZipEntries;

constexpr const char* kArchive = "mlp.core_aten.torch2_14.pt2";  // raw weight records
constexpr const char* kLegacy = "mlp.core_aten.torch2_6.pt2";    // torch.save pickles
constexpr const char* kRoot = "mlp.core_aten.torch2_14/";

std::vector<uint8_t> fixture(const char* name) {
  std::vector<uint8_t> bytes;
  EXPECT_TRUE(ember::testing::read_file(ember::testing::committed_pt2_fixture(name), &bytes))
      << name;
  return bytes;
}

Result<Graph> read(const std::vector<uint8_t>& bytes,
                   uint64_t max_read_bytes = kDefaultMaxReadBytes) {
  Pt2ReadOptions options;
  options.max_read_bytes = max_read_bytes;
  return read_pt2_buffer(bytes.data(), bytes.size(), "crafted.pt2", options);
}

std::string message() { return std::string(last_error_message()); }

std::vector<uint8_t> deep_stack_trace(size_t depth) {
  return with_deep_stack_trace(fixture(kArchive), depth);
}

TEST(Pt2BoundsTest, StackTraceNested200kAnd1MLevelsIsANamedErrorNotASegfault) {
  for (size_t depth : {size_t{200000}, size_t{1000000}}) {
    Result<Graph> g = read(deep_stack_trace(depth));
    ASSERT_FALSE(g.ok()) << depth;
    EXPECT_EQ(g.error(), Error::InvalidProgram);
    EXPECT_NE(message().find("models/model.json: JSON nested deeper than 100 levels"),
              std::string::npos)
        << message();
  }
}

TEST(Pt2BoundsTest, ModerateNestingInMetadataStillReads) {
  // 50 levels inside a node's metadata (the node itself sits at depth 6): within the limit,
  // ignored like any non-string metadata.
  ASSERT_TRUE(read(deep_stack_trace(50)).ok()) << message();
}

TEST(JsonDepthTest, HundredLevelsParseAndHundredAndOneAreRefused) {
  EXPECT_TRUE(parse_json(std::string(100, '[') + std::string(100, ']'), "t").ok());
  Result<Json> deep = parse_json(std::string(101, '[') + std::string(101, ']'), "t");
  ASSERT_FALSE(deep.ok());
  EXPECT_EQ(deep.error(), Error::InvalidProgram);
  EXPECT_EQ(message(),
            "t: JSON nested deeper than 100 levels (at byte 100); torch.export writes at most a "
            "few dozen");
  // Brackets inside strings (and escaped quotes) are text, not nesting.
  EXPECT_TRUE(parse_json("{\"s\": \"\\\"" + std::string(500, '[') + "\"}", "t").ok());
}

TEST(Pt2BoundsTest, UnreferencedZeroLengthRecordsOf256MiBAreNotMaterialised) {
  // The reproduction: 100 unused 256 MiB zero-length records (25.6 GB if materialised).
  // A 1 MiB cap: the graph's own weights (5,720 bytes) and JSON fit; one unused record would not.
  Result<Graph> g =
      read(with_unused_records(fixture(kArchive), 100, int64_t{64} << 20, true), uint64_t{1} << 20);
  ASSERT_TRUE(g.ok()) << message();
  EXPECT_FALSE(g->nodes().empty());
}

TEST(Pt2BoundsTest, UnreferencedCompressedRecordsAreNotDecompressed) {
  // Eight unused deflated records of 16 MiB zeros each (the 3 MB file that decompressed
  // 3.16 GB, scaled down): each within the per-entry ratio, none referenced by the graph.
  const std::vector<uint8_t> file =
      with_unused_records(fixture(kArchive), 8, int64_t{4} << 20, false);
  ASSERT_LT(file.size(), size_t{1} << 20);  // 128 MiB of records in well under 1 MiB
  Result<Graph> g = read(file, uint64_t{1} << 20);
  ASSERT_TRUE(g.ok()) << message();
}

TEST(Pt2BoundsTest, ReferencedBytesOverTheCapAreANamedError) {
  // models/model.json alone is 14,192 bytes: a 10,000-byte cap refuses it by name, after
  // archive_format ("pt2"), archive_version ("0") and byteorder ("little"): 10 bytes.
  Result<Graph> g = read(fixture(kArchive), 10000);
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.error(), Error::MemoryAllocationFailed);
  EXPECT_NE(message().find("entry 'mlp.core_aten.torch2_14/models/model.json': reading it would "
                           "bring the total read from the .pt2 to 10 + 14192 bytes, over the cap "
                           "of 10000 bytes"),
            std::string::npos)
      << message();
}

TEST(Pt2BoundsTest, LegacyNestedPicklesShareTheBudget) {
  // The legacy layout reads torch.save zips inside the .pt2: their entries are charged to the
  // same budget as the outer archive's. The whole read fits in 2x the file (the outer
  // entries once, the nested storages again); a budget of the outer program JSON alone
  // (9,776 bytes, less than the file) cannot hold it.
  std::vector<uint8_t> file = fixture(kLegacy);
  ASSERT_TRUE(read(file, 2 * file.size()).ok()) << message();
  Result<Graph> small = read(file, 9776);
  ASSERT_FALSE(small.ok());
  EXPECT_EQ(small.error(), Error::MemoryAllocationFailed);
  EXPECT_NE(message().find("serialized_state_dict.pt"), std::string::npos) << message();
}

TEST(Pt2BoundsTest, TwoModelJsonEntriesAreRefusedAsAmbiguous) {
  const std::string name = std::string(kRoot) + "models/model.json";
  Result<Graph> g = read(with_duplicate_entry(fixture(kArchive), name, "{}"));
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.error(), Error::InvalidProgram);
  EXPECT_NE(message().find("entry '" + name + "' appears twice in the archive"), std::string::npos)
      << message();
}

TEST(Pt2BoundsTest, TwoLegacyProgramEntriesAreRefusedAsAmbiguous) {
  Result<Graph> g =
      read(with_duplicate_entry(fixture(kLegacy), "serialized_exported_program.json", "{}"));
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.error(), Error::InvalidProgram);
  EXPECT_NE(message().find("'serialized_exported_program.json' appears twice"), std::string::npos)
      << message();
}

TEST(Pt2BoundsTest, FifoIsRefusedBeforeOpenBlocks) {
  const char* dir = getenv("TEST_TMPDIR");
  const std::string fifo = std::string(dir ? dir : "/tmp") + "/model.pt2";
  unlink(fifo.c_str());
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  alarm(20);  // a blocking open() kills the test instead of hanging it
  Result<Graph> g = read_pt2_file(fifo);
  alarm(0);
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.error(), Error::AccessFailed);
  EXPECT_EQ(message(), "'" + fifo + "' is not a readable regular file (it is a FIFO (named pipe))");
  unlink(fifo.c_str());
}

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
TEST(Pt2BoundsTest, OutOfMemoryIsMemoryAllocationFailedNotMalformedJson) {
  // fc1.weight's record becomes zero-length and its config claims 4M floats (16 MiB of zeros
  // to materialise, within the read budget of 1024x the 26 KB file); a child process with
  // 8 MiB of address space above what it uses now reads it and reports the error code and
  // message through a pipe.
  ZipEntries entries = unzip_all(fixture(kArchive));
  replace_in(entries, "model_weights_config.json",
             "\"sizes\": [{\"as_int\": 32}, {\"as_int\": 16}]",
             "\"sizes\": [{\"as_int\": 4194304}]");
  replace_in(entries, "model_weights_config.json",
             "\"strides\": [{\"as_int\": 16}, {\"as_int\": 1}]", "\"strides\": [{\"as_int\": 1}]");
  *find_entry(entries, "data/weights/weight_0") = {};
  const std::vector<uint8_t> file = zip_all(entries);
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    close(fds[0]);
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    long pages = 0;
    FILE* statm = fopen("/proc/self/statm", "r");
    if (statm == nullptr || fscanf(statm, "%ld", &pages) != 1) _exit(3);
    fclose(statm);
    const rlim_t limit = static_cast<rlim_t>(pages) * sysconf(_SC_PAGESIZE) + (rlim_t{8} << 20);
    rlimit rl{limit, limit};
    if (setrlimit(RLIMIT_AS, &rl) != 0) _exit(4);
    Result<Graph> g = read(file);
    std::string report = std::to_string(static_cast<int>(g.ok() ? Error::Ok : g.error())) + " " +
                         std::string(last_error_message());
    if (write(fds[1], report.data(), report.size()) < 0) _exit(5);
    _exit(0);
  }
  close(fds[1]);
  std::string report;
  char buf[512];
  ssize_t n;
  while ((n = ::read(fds[0], buf, sizeof(buf))) > 0) report.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "child crashed: " << status;
  ASSERT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(report.substr(0, report.find(' ')),
            std::to_string(static_cast<int>(Error::MemoryAllocationFailed)))
      << report;
  EXPECT_NE(report.find("out of memory (std::bad_alloc)"), std::string::npos) << report;
  EXPECT_EQ(report.find("unexpected JSON structure"), std::string::npos) << report;
}
#endif

}  // namespace
}  // namespace ember::aot
