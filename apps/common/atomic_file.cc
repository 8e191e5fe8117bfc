// AtomicFile (see atomic_file.h).
#include "apps/common/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>

#include "apps/common/write_fault.h"
#include "runtime/core/diagnostics.h"

namespace ember::apps {
namespace {

using runtime::fail;

std::string folder_of(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string name_of(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// A suffix that differs between processes and calls (not a secret: O_EXCL settles races).
std::string random_suffix(unsigned attempt) {
  static unsigned counter = 0;
  const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
  unsigned long long x = static_cast<unsigned long long>(now) ^
                         (static_cast<unsigned long long>(getpid()) << 32) ^ (++counter * 7919u) ^
                         attempt;
  static const char kChars[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::string s;
  for (int i = 0; i < 6; ++i) {
    s += kChars[x % 36];
    x = x / 36 + 0x9e3779b97f4a7c15ull * (i + 1);
  }
  return s;
}

// The step's errno: an injected fault, or `real` (the errno the real call left).
int fault_or(WriteStep step, const std::string& path, int real) {
  const int injected = injected_write_fault(step, path);
  return injected != 0 ? injected : real;
}

// The file to replace: a symlink's target, so the link keeps pointing at the new file.
std::string resolve_target(const std::string& path) {
  struct stat st;
  if (lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
    char real[PATH_MAX];
    if (realpath(path.c_str(), real) != nullptr) return real;
  }
  return path;
}

}  // namespace

Result<AtomicFile> AtomicFile::create(const std::string& requested) {
  if (requested.empty()) return fail(Error::InvalidArgument, "empty output path");
  const std::string path = resolve_target(requested);
  struct stat st;
  if (stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    return fail(Error::AccessFailed, "cannot write '%s': it is %s, not a regular file",
                requested.c_str(),
                S_ISDIR(st.st_mode) ? "a directory" : "a device, FIFO or socket");
  }
  const std::string folder = folder_of(path);
  int error_number = 0;
  for (unsigned attempt = 0; attempt < 64; ++attempt) {
    std::string temp = folder + "/." + name_of(path) + ".tmp-" + random_suffix(attempt);
    int fd = -1;
    error_number = injected_write_fault(WriteStep::Open, path);
    if (error_number == 0) {
      fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      if (fd < 0) error_number = errno;
    }
    if (fd >= 0) return AtomicFile(path, std::move(temp), fd);
    if (error_number != EEXIST) break;
  }
  return fail(Error::AccessFailed,
              "cannot write '%s': cannot create a temporary file in '%s': %s (nothing was "
              "written)",
              requested.c_str(), folder.c_str(), std::strerror(error_number));
}

AtomicFile::AtomicFile(AtomicFile&& other) noexcept
    : path_(std::move(other.path_)),
      temp_(std::move(other.temp_)),
      fd_(other.fd_),
      done_(other.done_) {
  other.fd_ = -1;
  other.done_ = true;
}

AtomicFile::~AtomicFile() { discard(); }

void AtomicFile::discard() {
  if (done_) return;
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  ::unlink(temp_.c_str());
  done_ = true;
}

Error AtomicFile::fail_step(const char* step, int error_number) {
  discard();
  return fail(Error::AccessFailed,
              "cannot write '%s': %s of its temporary file failed: %s (the temporary is "
              "removed; any previous '%s' is unchanged)",
              path_.c_str(), step, std::strerror(error_number), path_.c_str());
}

Error AtomicFile::write(const void* data, size_t size) {
  if (done_) return fail(Error::InvalidState, "write to '%s' after commit", path_.c_str());
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    int error_number = injected_write_fault(WriteStep::Write, path_);
    ssize_t n = -1;
    if (error_number == 0) {
      n = ::write(fd_, p, size);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) error_number = errno;
      if (n == 0) error_number = ENOSPC;  // no progress: treat as a full device
    }
    if (error_number != 0) return fail_step("write", error_number);
    p += n;
    size -= static_cast<size_t>(n);
  }
  return Error::Ok;
}

Error AtomicFile::finish_writing() {
  if (done_) return fail(Error::InvalidState, "finish_writing of '%s' after commit", path_.c_str());
  if (fd_ < 0) return Error::Ok;  // already finished
  int e = fault_or(WriteStep::Fsync, path_, ::fsync(fd_) == 0 ? 0 : errno);
  if (e != 0) return fail_step("fsync", e);
  const int fd = fd_;
  fd_ = -1;
  e = fault_or(WriteStep::Close, path_, ::close(fd) == 0 ? 0 : errno);
  if (e != 0) return fail_step("close", e);
  return Error::Ok;
}

Error AtomicFile::commit() {
  if (done_) return fail(Error::InvalidState, "commit of '%s' twice", path_.c_str());
  EMBER_TRY(finish_writing());
  int e = injected_write_fault(WriteStep::Rename, path_);
  if (e == 0 && ::rename(temp_.c_str(), path_.c_str()) != 0) e = errno;
  if (e != 0) return fail_step("rename", e);
  done_ = true;
  // Make the rename itself durable.
  const std::string folder = folder_of(path_);
  const int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    const int sync_error = ::fsync(dir) == 0 ? 0 : errno;
    ::close(dir);
    if (sync_error != 0 && sync_error != EINVAL) {
      return fail(Error::AccessFailed, "'%s' was written but its folder could not be synced: %s",
                  path_.c_str(), std::strerror(sync_error));
    }
  }
  return Error::Ok;
}

Error commit_all(std::vector<AtomicFile>& files) {
  for (AtomicFile& f : files) EMBER_TRY(f.finish_writing());
  for (AtomicFile& f : files) EMBER_TRY(f.commit());
  return Error::Ok;
}

Error write_file_atomically(const std::string& path, const void* data, size_t size) {
  Result<AtomicFile> file = AtomicFile::create(path);
  if (!file.ok()) return file.error();
  Error e = file->write(data, size);
  if (e != Error::Ok) return e;
  return file->commit();
}

}  // namespace ember::apps
