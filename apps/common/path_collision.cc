// Path collisions (see path_collision.h).
#include "apps/common/path_collision.h"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/core/diagnostics.h"

namespace ember::apps {
namespace {

// Folds "." and ".." and repeated slashes of an absolute path, lexically.
std::string fold(const std::string& absolute) {
  std::vector<std::string> parts;
  size_t i = 0;
  while (i <= absolute.size()) {
    size_t j = absolute.find('/', i);
    if (j == std::string::npos) j = absolute.size();
    const std::string part = absolute.substr(i, j - i);
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    i = j + 1;
  }
  std::string out;
  for (const std::string& p : parts) out += "/" + p;
  return out.empty() ? "/" : out;
}

std::string absolute(const std::string& path) {
  if (!path.empty() && path[0] == '/') return path;
  char cwd[PATH_MAX];
  if (getcwd(cwd, sizeof(cwd)) == nullptr) return path;
  return std::string(cwd) + "/" + path;
}

}  // namespace

std::string normalised_path(const std::string& path) {
  const std::string folded = fold(absolute(path));
  // Resolve the longest existing prefix through symlinks; keep the rest as folded.
  std::string head = folded, tail;
  while (true) {
    char real[PATH_MAX];
    if (realpath(head.c_str(), real) != nullptr) {
      std::string r(real);
      return tail.empty() ? r : fold(r + "/" + tail);
    }
    const size_t slash = head.find_last_of('/');
    if (slash == std::string::npos || head == "/") return folded;
    tail = head.substr(slash + 1) + (tail.empty() ? "" : "/" + tail);
    head = slash == 0 ? "/" : head.substr(0, slash);
  }
}

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa, sb;
  if (stat(a.c_str(), &sa) == 0 && stat(b.c_str(), &sb) == 0) {
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  }
  return normalised_path(a) == normalised_path(b);
}

runtime::Error check_path_collisions(const std::vector<PathUse>& inputs,
                                     const std::vector<PathUse>& outputs) {
  for (size_t o = 0; o < outputs.size(); ++o) {
    const PathUse& out = outputs[o];
    for (const PathUse& in : inputs) {
      if (same_file(out.path, in.path)) {
        return runtime::fail(runtime::Error::InvalidArgument,
                             "%s '%s' is the input %s '%s': writing it would destroy the input; "
                             "choose another output path",
                             out.flag.c_str(), out.path.c_str(), in.flag.c_str(), in.path.c_str());
      }
    }
    for (size_t p = 0; p < o; ++p) {
      if (same_file(out.path, outputs[p].path)) {
        return runtime::fail(runtime::Error::InvalidArgument,
                             "%s '%s' and %s '%s' are the same file: one output would overwrite "
                             "the other; give them different paths",
                             outputs[p].flag.c_str(), outputs[p].path.c_str(), out.flag.c_str(),
                             out.path.c_str());
      }
    }
  }
  return runtime::Error::Ok;
}

}  // namespace ember::apps
