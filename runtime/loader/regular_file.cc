#include "runtime/loader/regular_file.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>

#include "runtime/core/diagnostics.h"

namespace ember::runtime {

Result<RegularFile> open_regular_file(const char* path) {
  // O_NONBLOCK: open() of a FIFO with no writer would otherwise block forever before the
  // fstat() below could refuse it (issue #33). It changes nothing for a regular file's reads,
  // and is cleared again once the file is known to be regular.
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    return fail(errno == ENOENT ? Error::NotFound : Error::AccessFailed, "cannot open '%s': %s",
                path, std::strerror(errno));
  }
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    const int e = errno;
    ::close(fd);
    return fail(Error::AccessFailed, "cannot stat '%s': %s", path, std::strerror(e));
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    return fail(Error::AccessFailed, "'%s' is a directory, not a file", path);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    const char* kind = S_ISFIFO(st.st_mode)   ? "a FIFO (named pipe)"
                       : S_ISCHR(st.st_mode)  ? "a character device"
                       : S_ISBLK(st.st_mode)  ? "a block device"
                       : S_ISSOCK(st.st_mode) ? "a socket"
                                              : "not a file";
    return fail(Error::AccessFailed, "'%s' is not a readable regular file (it is %s)", path, kind);
  }
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
    const int e = errno;
    ::close(fd);
    return fail(Error::AccessFailed, "cannot clear O_NONBLOCK on '%s': %s", path, std::strerror(e));
  }
  return RegularFile{fd, static_cast<size_t>(st.st_size)};
}

}  // namespace ember::runtime
