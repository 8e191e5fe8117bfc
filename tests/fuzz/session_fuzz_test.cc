// LLM session files on hostile bytes, in `bazel test`: real session files saved from the tiny
// Llama fixture (//tests/embedding:llm_llama) restore through the fuzz entry point in both
// forms; fixed-seed mutations (bytes flipped, cut, spliced, erased) of each, with the checksum
// made to match, end in a restored session that runs its next token or a named error that
// leaves the session as it was; the same mutations with the checksum as mutated are refused.
#include "tests/fuzz/session_fuzz.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <random>
#include <string>

#include "runtime/core/diagnostics.h"

namespace ember::fuzz {
namespace {

using runtime::Error;

std::string pte_path() {
  const char* dir = std::getenv("TEST_SRCDIR");
  const char* ws = std::getenv("TEST_WORKSPACE");
  return std::string(dir ? dir : ".") + "/" + (ws ? ws : "ember") + "/tests/embedding/llm_llama.pte";
}

const std::vector<std::pair<std::string, std::string>>& seeds() {
  static const auto s = [] {
    EXPECT_EQ(session_fuzz_init(pte_path()), Error::Ok) << runtime::last_error_message();
    return session_fuzz_seeds();
  }();
  return s;
}

Error run(const std::string& input) {
  runtime::clear_error_message();
  return session_fuzz_input(reinterpret_cast<const uint8_t*>(input.data()), input.size());
}

std::string mutate(std::string m, std::mt19937& rng) {
  const int edits = 1 + rng() % 4;
  for (int e = 0; e < edits && m.size() > 1; ++e) {
    const size_t at = 1 + rng() % (m.size() - 1);  // byte 0 keeps the form
    switch (rng() % 4) {
      case 0:
        m[at] = static_cast<char>(m[at] ^ (1 + rng() % 255));
        break;
      case 1:
        m.resize(at);
        break;
      case 2:
        m.insert(at, m.substr(1 + rng() % (m.size() - 1), 1 + rng() % 16));
        break;
      default:
        m.erase(at, 1 + rng() % 8);
        break;
    }
  }
  return m;
}

TEST(SessionFuzzTest, SavedSessionsRestoreInBothForms) {
  ASSERT_EQ(seeds().size(), 8u);  // 4 sessions x (raw, body)
  for (const auto& [name, input] : seeds()) {
    EXPECT_EQ(run(input), Error::Ok) << name << ": " << runtime::last_error_message();
  }
}

// Mostly the header and tables: the mutations land in the first 4 KiB of the body form.
TEST(SessionFuzzTest, MutatedSessionFilesRestoreOrNameTheError) {
  std::mt19937 rng(33);
  int refused = 0, restored = 0;
  for (const auto& [name, input] : seeds()) {
    if (input[0] != '\1') continue;
    const std::string head = input.substr(0, std::min<size_t>(input.size(), 4096));
    const std::string tail = input.substr(head.size());
    for (int i = 0; i < 500; ++i) {
      const std::string m = mutate(head, rng) + tail;
      const Error err = run(m);
      ASSERT_NE(err, Error::Internal) << name << " round " << i << ": " << runtime::last_error_message();
      if (err == Error::Ok) {
        ++restored;
      } else {
        ++refused;
        EXPECT_NE(std::string(runtime::last_error_message()).find("session file"), std::string::npos)
            << name << " round " << i << ": " << runtime::last_error_message();
      }
    }
  }
  std::printf("%d mutated files refused, %d restored\n", refused, restored);
  EXPECT_GT(refused, 0);
}

TEST(SessionFuzzTest, MutatedRawFilesFailTheChecksum) {
  std::mt19937 rng(34);
  for (const auto& [name, input] : seeds()) {
    if (input[0] != '\0') continue;
    for (int i = 0; i < 50; ++i) {
      const std::string m = mutate(input, rng);
      if (m == input) continue;
      const Error err = run(m);
      ASSERT_NE(err, Error::Internal) << name << " round " << i << ": " << runtime::last_error_message();
      EXPECT_NE(err, Error::Ok) << name << " round " << i;
    }
  }
}

// Issue #33: load_session opened with fopen, so a FIFO blocked forever; a FIFO, a directory
// and /dev/zero are now AccessFailed at once (alarm turns a hang into a failed test).
TEST(SessionFuzzTest, NonRegularFilesAreRefusedAtOnce) {
  ASSERT_FALSE(seeds().empty());
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string dir = tmp != nullptr ? tmp : "/tmp";
  const std::string fifo = dir + "/chat.session";
  ::unlink(fifo.c_str());
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& path : {fifo, dir, std::string("/dev/zero")}) {
    ::alarm(20);
    const Error err = session_fuzz_restore_file(path);
    ::alarm(0);
    EXPECT_EQ(err, Error::AccessFailed) << path;
    EXPECT_EQ(std::string(runtime::last_error_message()),
              "session file '" + path + "' is not a readable regular file");
  }
  ::unlink(fifo.c_str());
}

}  // namespace
}  // namespace ember::fuzz
