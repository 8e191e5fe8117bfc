// libFuzzer target over LLM session files: llm::load_session restoring an EMBRLLMS v1 file into
// a loaded decoder (session_run_fuzz.sh builds and runs it with EMBER_SESSION_FUZZ_PTE naming
// the decoder; session_fuzz_test drives the same entry point in `bazel test`).
#include "tests/fuzz/session_fuzz.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>

#include "apps/executor_runner/registration.h"
#include "llm/generation/random.h"
#include "llm/runner/content_hash.h"
#include "llm/runner/pte_logits_model.h"
#include "llm/runner/session.h"
#include "llm/runner/session_file.h"
#include "runtime/core/diagnostics.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::fuzz {
namespace {

using runtime::Error;

std::unique_ptr<llm::PteLogitsModel>& model() {
  static std::unique_ptr<llm::PteLogitsModel> m;
  return m;
}

llm::Session session_on(llm::PteLogitsModel& m) {
  return llm::Session(m, m.max_seq_len(), m.context_length());
}

// An in-memory file holding `bytes`, named by /proc/self/fd (a regular file to load_session).
class MemFile {
 public:
  explicit MemFile(const std::string& bytes) : fd_(::memfd_create("session", MFD_CLOEXEC)) {
    size_t done = 0;
    while (fd_ >= 0 && done < bytes.size()) {
      const ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
      if (n <= 0) break;
      done += size_t(n);
    }
    ok_ = fd_ >= 0 && done == bytes.size();
  }
  ~MemFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  bool ok() const { return ok_; }
  std::string path() const { return "/proc/self/fd/" + std::to_string(fd_); }

 private:
  int fd_;
  bool ok_ = false;
};

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

int32_t argmax(const std::vector<float>& v) {
  size_t best = 0;
  for (size_t i = 1; i < v.size(); ++i) best = v[i] > v[best] ? i : best;
  return static_cast<int32_t>(best);
}

}  // namespace

Error session_fuzz_init(const std::string& pte_path) {
  if (model() != nullptr) return Error::Ok;
  static runtime::FixedKernelRegistry<runtime::kDefaultKernelRegistryCapacity> kernels;
  static runtime::BackendRegistry backends;
  EMBER_TRY(runtime::register_linked(kernels, backends));
  runtime::Module::Options options;
  options.method.kernels = &kernels;
  options.method.backends = &backends;
  EMBER_ASSIGN_OR_RETURN(std::unique_ptr<llm::PteLogitsModel> m,
                         llm::PteLogitsModel::load(pte_path, options));
  model() = std::move(m);
  return Error::Ok;
}

std::vector<std::pair<std::string, std::string>> session_fuzz_seeds() {
  std::vector<std::pair<std::string, std::string>> seeds;
  if (model() == nullptr) return seeds;
  llm::PteLogitsModel& m = *model();
  const char* tmp = std::getenv("TEST_TMPDIR");
  std::string dir = std::string(tmp != nullptr ? tmp : "/tmp") + "/ember_session_seeds.XXXXXX";
  if (::mkdtemp(dir.data()) == nullptr) return seeds;
  auto save = [&](const std::string& name, const llm::Session& s, const llm::Rng* rng) {
    const std::string path = dir + "/" + name + ".session";
    if (llm::save_session(path, m, s, rng) != Error::Ok) return;
    const std::string file = read_all(path);
    std::remove(path.c_str());
    seeds.emplace_back(name + ".raw", std::string(1, '\0') + file);
    if (file.size() >= 8) {
      seeds.emplace_back(name + ".body", std::string(1, '\1') + file.substr(0, file.size() - 8));
    }
  };
  llm::Session empty = session_on(m);
  save("empty", empty, nullptr);
  std::vector<int32_t> prompt;
  for (int32_t t : {1, 5, 9, 13, 17}) prompt.push_back(t % m.vocab_size());
  llm::Session s = session_on(m);
  llm::Rng rng(7);
  if (s.append(prompt).ok()) {
    save("prompt", s, &rng);
    bool ok = true;
    for (int step = 0; step < 3 && ok; ++step) ok = s.append({argmax(s.last_logits())}).ok();
    if (ok) save("decoded", s, &rng);
    if (s.truncate(3) == Error::Ok) save("truncated", s, nullptr);
  }
  ::rmdir(dir.c_str());
  return seeds;
}

Error session_fuzz_input(const uint8_t* data, size_t size) {
  if (model() == nullptr) return runtime::fail(Error::InvalidState, "session_fuzz_init first");
  if (size == 0) return Error::Ok;
  std::string file(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] % 2 == 1) {
    llm::ContentHash hash;
    hash.update(file.data(), file.size());
    const uint64_t sum = hash.finish();
    file.append(reinterpret_cast<const char*>(&sum), sizeof(sum));
  }
  MemFile mem(file);
  if (!mem.ok()) return runtime::fail(Error::AccessFailed, "cannot make an in-memory file");
  return session_fuzz_restore_file(mem.path());
}

Error session_fuzz_restore_file(const std::string& path) {
  if (model() == nullptr) return runtime::fail(Error::InvalidState, "session_fuzz_init first");
  llm::PteLogitsModel& m = *model();
  llm::Session session = session_on(m);
  const std::vector<int32_t> before = {2 % m.vocab_size(), 3 % m.vocab_size()};
  if (session.restore(before, {}) != Error::Ok) return runtime::fail(Error::Internal, "restore of two tokens");
  llm::Rng rng(1);
  bool has_rng = false;
  runtime::clear_error_message();
  const Error err = llm::load_session(path, m, session, &rng, &has_rng);
  if (err != Error::Ok) {
    if (session.tokens() != before) {
      return runtime::fail(Error::Internal, "a refused session file changed the session's tokens");
    }
    if (runtime::last_error_message()[0] == '\0') {
      return runtime::fail(Error::Internal, "a refused session file has no message");
    }
    return err;
  }
  // A restored session runs on: its next token at its position, when the context has room.
  if (session.position() < session.context_length()) {
    auto next = session.append({0});
    if (!next.ok()) {
      return runtime::fail(Error::Internal, "a restored session of %d tokens cannot run its next token",
                           session.position() - 1);
    }
  }
  return Error::Ok;
}

}  // namespace ember::fuzz

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  const char* pte = std::getenv("EMBER_SESSION_FUZZ_PTE");
  if (pte == nullptr || ember::fuzz::session_fuzz_init(pte) != ember::runtime::Error::Ok) {
    std::fprintf(stderr, "session_fuzz: set EMBER_SESSION_FUZZ_PTE to the lowered decoder: %s\n",
                 ember::runtime::last_error_message());
    std::abort();
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ember::runtime::clear_error_message();
  if (ember::fuzz::session_fuzz_input(data, size) == ember::runtime::Error::Internal) {
    std::fprintf(stderr, "session_fuzz: invariant broken: %s\n", ember::runtime::last_error_message());
    std::abort();
  }
  return 0;
}
