#include "tests/support/shared_fixtures.h"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>

namespace ember::testing {
namespace {

bool is_dir(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string parent(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

}  // namespace

std::string runfiles_root() {
  const char* srcdir = getenv("TEST_SRCDIR");
  const char* ws = getenv("TEST_WORKSPACE");
  return srcdir && ws ? std::string(srcdir) + "/" + ws : std::string(".");
}

std::string committed_pt2_fixture(const std::string& name) {
  return runfiles_root() + "/tests/fixtures/pt2/" + name;
}

std::string shared_dir() {
  if (const char* env = getenv("EMBER_SHARED_DIR"); env != nullptr && *env != '\0') {
    return is_dir(env) ? std::string(env) : std::string();
  }
  const char* srcdir = getenv("TEST_SRCDIR");
  const char* workspace = getenv("TEST_WORKSPACE");
  if (srcdir == nullptr || workspace == nullptr) return std::string();
  const std::string marker = std::string(srcdir) + "/" + workspace + "/WORKSPACE";
  char real[PATH_MAX];
  if (realpath(marker.c_str(), real) == nullptr) return std::string();
  const std::string candidate = parent(parent(real)) + "/shared";
  return is_dir(candidate) ? candidate : std::string();
}

const char* skip_message() {
  return "../shared (the fixture corpus) is not beside this checkout; set "
         "EMBER_SHARED_DIR to run tests that read it";
}

bool read_file(const std::string& path, std::vector<uint8_t>* out) {
  FILE* f = fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  out->clear();
  uint8_t buf[1 << 16];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), f)) > 0) out->insert(out->end(), buf, buf + n);
  const bool ok = ferror(f) == 0;
  fclose(f);
  return ok;
}

std::vector<std::string> list_files(const std::string& dir, const std::string& suffix) {
  std::vector<std::string> names;
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return names;
  while (const dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (name.size() >= suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      names.push_back(name);
    }
  }
  closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace ember::testing
