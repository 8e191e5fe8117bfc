// AtomicFile against every failing step (injected ENOSPC / EIO at open, write, fsync, close,
// rename; the EMBER_WRITE_FAULT variable the tools' tests use), a real full file system (a
// 64 KiB tmpfs, when this process may mount one), kill -9 in the middle of a write, and
// targets that are directories, FIFOs, symlinks or in missing folders. After every failure:
// a named AccessFailed, the previous file byte for byte, and no temporary left behind.
#include "apps/common/atomic_file.h"

#include <dirent.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "apps/common/write_fault.h"
#include "runtime/core/diagnostics.h"

namespace ember::apps {
namespace {

std::string read_all(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

void write_plain(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> names;
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return names;
  while (dirent* e = readdir(d)) {
    const std::string n = e->d_name;
    if (n != "." && n != "..") names.push_back(n);
  }
  closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

class AtomicFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tmp = std::getenv("TEST_TMPDIR");
    static int n = 0;
    dir_ = std::string(tmp ? tmp : "/tmp") + "/atomic" + std::to_string(++n);
    ASSERT_EQ(mkdir(dir_.c_str(), 0755), 0) << dir_;
    target_ = dir_ + "/model.pte";
  }
  void TearDown() override {
    set_write_fault_hook(nullptr);
    unsetenv("EMBER_WRITE_FAULT");
  }
  std::string message() const { return runtime::last_error_message(); }

  std::string dir_, target_;
};

TEST_F(AtomicFileTest, WritesANewFileAndReplacesAnOldOne) {
  ASSERT_EQ(write_file_atomically(target_, std::string("first")), Error::Ok) << message();
  EXPECT_EQ(read_all(target_), "first");
  ASSERT_EQ(write_file_atomically(target_, std::string("second, longer")), Error::Ok);
  EXPECT_EQ(read_all(target_), "second, longer");
  EXPECT_EQ(files_in(dir_), std::vector<std::string>{"model.pte"});
  struct stat st;
  ASSERT_EQ(stat(target_.c_str(), &st), 0);
  const mode_t mask = umask(0);
  umask(mask);
  EXPECT_EQ(st.st_mode & 0777, 0666u & ~mask);  // like fopen, not mkstemp's 0600
}

TEST_F(AtomicFileTest, EveryFailingStepKeepsThePreviousFileAndRemovesTheTemporary) {
  for (WriteStep step :
       {WriteStep::Open, WriteStep::Write, WriteStep::Fsync, WriteStep::Close, WriteStep::Rename}) {
    write_plain(target_, "previous good program");
    set_write_fault_hook(
        [step](WriteStep s, const std::string&) { return s == step ? ENOSPC : 0; });
    const std::string big(1 << 20, 'x');
    EXPECT_EQ(write_file_atomically(target_, big), Error::AccessFailed) << to_string(step);
    EXPECT_NE(message().find("No space left on device"), std::string::npos) << message();
    EXPECT_NE(message().find("'" + target_ + "'"), std::string::npos) << message();
    EXPECT_EQ(read_all(target_), "previous good program") << to_string(step);
    EXPECT_EQ(files_in(dir_), std::vector<std::string>{"model.pte"}) << to_string(step);
    set_write_fault_hook(nullptr);
  }
  EXPECT_EQ(message(),
            "cannot write '" + target_ +
                "': rename of its temporary file failed: No space left on device (the temporary "
                "is removed; any previous '" +
                target_ + "' is unchanged)");
}

TEST_F(AtomicFileTest, FailureWithoutAPreviousFileLeavesNothing) {
  set_write_fault_hook(
      [](WriteStep s, const std::string&) { return s == WriteStep::Close ? EIO : 0; });
  EXPECT_EQ(write_file_atomically(target_, std::string("data")), Error::AccessFailed);
  EXPECT_NE(message().find("close of its temporary file failed: Input/output error"),
            std::string::npos)
      << message();
  EXPECT_TRUE(files_in(dir_).empty());
}

TEST_F(AtomicFileTest, EnvironmentVariableInjectsFaultsForToolTests) {
  write_plain(target_, "old");
  setenv("EMBER_WRITE_FAULT", "fsync:EIO", 1);
  EXPECT_EQ(write_file_atomically(target_, std::string("new")), Error::AccessFailed);
  EXPECT_NE(message().find("fsync of its temporary file failed: Input/output error"),
            std::string::npos)
      << message();
  EXPECT_EQ(read_all(target_), "old");
  setenv("EMBER_WRITE_FAULT", "rename:ENOSPC", 1);  // another step: still refused
  EXPECT_EQ(write_file_atomically(target_, std::string("new")), Error::AccessFailed);
  // With a target suffix only the matching paths fail.
  setenv("EMBER_WRITE_FAULT", "write:ENOSPC:other.json", 1);
  EXPECT_EQ(write_file_atomically(target_, std::string("new")), Error::Ok);
  EXPECT_EQ(write_file_atomically(dir_ + "/other.json", std::string("x")), Error::AccessFailed);
  EXPECT_NE(message().find("No space left on device"), std::string::npos) << message();
  write_plain(target_, "old");
  unsetenv("EMBER_WRITE_FAULT");
  EXPECT_EQ(write_file_atomically(target_, std::string("new")), Error::Ok);
  EXPECT_EQ(read_all(target_), "new");
}

// Outputs of one run as a set: a fault while syncing the second leaves the first's previous
// contents too (issue #33: a failing --debug_out left a new .pte beside the old sidecar).
TEST_F(AtomicFileTest, CommitAllSyncsEveryFileBeforeTheFirstRename) {
  const std::string second = dir_ + "/second.ptdbg";
  for (WriteStep step : {WriteStep::Fsync, WriteStep::Close}) {
    write_plain(target_, "old pte");
    write_plain(second, "old sidecar");
    set_write_fault_hook([&](WriteStep s, const std::string& path) { return s == step && path == second ? EIO : 0; });
    std::vector<AtomicFile> files;
    for (const std::string& path : {target_, second}) {
      Result<AtomicFile> f = AtomicFile::create(path);
      ASSERT_TRUE(f.ok());
      ASSERT_EQ(f->write(std::string("new")), Error::Ok);
      files.push_back(std::move(*f));
    }
    EXPECT_EQ(commit_all(files), Error::AccessFailed);
    files.clear();
    EXPECT_EQ(read_all(target_), "old pte") << to_string(step);
    EXPECT_EQ(read_all(second), "old sidecar") << to_string(step);
    EXPECT_EQ(files_in(dir_).size(), 2u) << "a temporary was left behind";
  }
  set_write_fault_hook(nullptr);
  std::vector<AtomicFile> files;
  for (const std::string& path : {target_, second}) {
    Result<AtomicFile> f = AtomicFile::create(path);
    ASSERT_TRUE(f.ok());
    ASSERT_EQ(f->write(std::string("new")), Error::Ok);
    files.push_back(std::move(*f));
  }
  EXPECT_EQ(commit_all(files), Error::Ok);
  EXPECT_EQ(read_all(target_), "new");
  EXPECT_EQ(read_all(second), "new");
}

TEST_F(AtomicFileTest, UncommittedFileIsDiscarded) {
  write_plain(target_, "old");
  {
    Result<AtomicFile> f = AtomicFile::create(target_);
    ASSERT_TRUE(f.ok());
    ASSERT_EQ(f->write(std::string("half of a new")), Error::Ok);
    EXPECT_EQ(files_in(dir_).size(), 2u);  // the target and the temporary
  }                                        // destroyed without commit (an error path in a tool)
  EXPECT_EQ(read_all(target_), "old");
  EXPECT_EQ(files_in(dir_), std::vector<std::string>{"model.pte"});
}

TEST_F(AtomicFileTest, BadTargetsAreNamedErrors) {
  EXPECT_EQ(write_file_atomically(dir_, std::string("x")), Error::AccessFailed);
  EXPECT_EQ(message(), "cannot write '" + dir_ + "': it is a directory, not a regular file");
  const std::string fifo = dir_ + "/pipe";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(write_file_atomically(fifo, std::string("x")), Error::AccessFailed);
  EXPECT_EQ(message(),
            "cannot write '" + fifo + "': it is a device, FIFO or socket, not a regular file");
  EXPECT_EQ(write_file_atomically("/dev/null", std::string("x")), Error::AccessFailed);
  const std::string missing = dir_ + "/no/such/folder/m.pte";
  EXPECT_EQ(write_file_atomically(missing, std::string("x")), Error::AccessFailed);
  EXPECT_EQ(message(), "cannot write '" + missing + "': cannot create a temporary file in '" +
                           dir_ +
                           "/no/such/folder': No such file or directory (nothing was written)");
}

TEST_F(AtomicFileTest, SymlinkKeepsPointingAtTheNewContents) {
  const std::string real = dir_ + "/real.pte", link = dir_ + "/link.pte";
  write_plain(real, "old");
  ASSERT_EQ(symlink(real.c_str(), link.c_str()), 0);
  ASSERT_EQ(write_file_atomically(link, std::string("new")), Error::Ok) << message();
  struct stat st;
  ASSERT_EQ(lstat(link.c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
  EXPECT_EQ(read_all(real), "new");
}

TEST_F(AtomicFileTest, RealFullFileSystem) {
  const std::string mnt = dir_ + "/small";
  ASSERT_EQ(mkdir(mnt.c_str(), 0755), 0);
  if (mount("tmpfs", mnt.c_str(), "tmpfs", 0, "size=64k") != 0) {
    GTEST_SKIP() << "cannot mount a tmpfs here (" << std::strerror(errno)
                 << "); the injected-fault tests cover the same paths";
  }
  struct Unmount {  // also when an assertion below fails
    std::string path;
    ~Unmount() { umount(path.c_str()); }
  } unmount{mnt};
  const std::string target = mnt + "/model.pte";
  write_plain(target, "previous good program");
  EXPECT_EQ(write_file_atomically(target, std::string(256 << 10, 'x')), Error::AccessFailed);
  EXPECT_NE(message().find("write of its temporary file failed: No space left on device"),
            std::string::npos)
      << message();
  EXPECT_EQ(read_all(target), "previous good program");
  EXPECT_EQ(files_in(mnt), std::vector<std::string>{"model.pte"});
}

TEST_F(AtomicFileTest, KillDashNineMidWriteLeavesThePreviousFileIntact) {
  write_plain(target_, "previous good program");
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {  // writes 1 MiB, then tells the parent and waits to be killed
    close(ready[0]);
    int writes = 0;
    set_write_fault_hook([&](WriteStep s, const std::string&) {
      if (s == WriteStep::Write && ++writes == 2) {
        if (::write(ready[1], "w", 1) != 1) _exit(3);
        pause();
      }
      return 0;
    });
    Result<AtomicFile> f = AtomicFile::create(target_);
    if (!f.ok()) _exit(4);
    const std::string chunk(1 << 20, 'n');
    (void)f->write(chunk);
    (void)f->write(chunk);
    _exit(5);  // not reached: killed in the second write
  }
  close(ready[1]);
  char c = 0;
  ASSERT_EQ(read(ready[0], &c, 1), 1);
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  EXPECT_EQ(read_all(target_), "previous good program");
  // kill -9 cannot clean up: one temporary, named by the documented pattern, holds the MiB.
  const std::vector<std::string> names = files_in(dir_);
  ASSERT_EQ(names.size(), 2u);
  EXPECT_EQ(names[0].rfind(".model.pte.tmp-", 0), 0u) << names[0];
  EXPECT_EQ(read_all(dir_ + "/" + names[0]).size(), size_t{1} << 20);
  close(ready[0]);
}

}  // namespace
}  // namespace ember::apps
