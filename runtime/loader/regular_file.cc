#include "runtime/loader/regular_file.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>

#include "runtime/core/diagnostics.h"

namespace ember::runtime {

Result<RegularFile> open_regular_file(const char* path) {
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return fail(errno == ENOENT ? Error::NotFound : Error::AccessFailed, "cannot open '%s': %s",
                path, std::strerror(errno));
  }
  struct stat st;
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    ::close(fd);
    return fail(Error::AccessFailed, "'%s' is a directory, not a file", path);
  }
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return fail(Error::AccessFailed, "'%s' is not a readable regular file", path);
  }
  return RegularFile{fd, static_cast<size_t>(st.st_size)};
}

}  // namespace ember::runtime
