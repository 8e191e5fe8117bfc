// check_unknown_flags (see unknown_flags.h).
#include "apps/common/unknown_flags.h"

#include <gflags/gflags.h>

#include <algorithm>
#include <cstring>

#include "apps/common/printable.h"
#include "runtime/core/diagnostics.h"

namespace ember::apps {
namespace {

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string closest_flag(const std::string& name, const std::vector<std::string>& known) {
  std::string best;
  size_t best_distance = std::max<size_t>(2, name.size() / 3) + 1;
  for (const std::string& k : known) {
    const size_t d = edit_distance(name, k);
    if (d < best_distance) {
      best = k;
      best_distance = d;
    }
  }
  return best;
}

runtime::Error check_unknown_flags(int argc, char** argv, const std::vector<std::string>& extra) {
  std::vector<gflags::CommandLineFlagInfo> flags;
  gflags::GetAllFlags(&flags);
  std::vector<std::string> known = extra;
  for (const gflags::CommandLineFlagInfo& f : flags) known.push_back(f.name);
  // gflags' own flags (--help, --flagfile, ...) are registered too; the tool's come first in
  // the suggestions only by distance.
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    if (std::strcmp(a, "--") == 0) break;
    if (a[0] != '-' || a[1] == '\0') continue;  // a positional argument
    std::string name = a + (a[1] == '-' ? 2 : 1);
    const size_t eq = name.find('=');
    const bool has_value = eq != std::string::npos;
    if (has_value) name.resize(eq);
    if (std::find(extra.begin(), extra.end(), name) != extra.end()) {
      if (!has_value) ++i;  // the tool's own flags all take a value
      continue;
    }
    gflags::CommandLineFlagInfo info;
    if (gflags::GetCommandLineFlagInfo(name.c_str(), &info)) {
      if (!has_value && info.type != "bool") ++i;  // "--flag value"
      continue;
    }
    if (name.rfind("no", 0) == 0 && gflags::GetCommandLineFlagInfo(name.c_str() + 2, &info) && info.type == "bool") {
      continue;
    }
    std::string dashed = name;  // lower's --dump-dir style: gflags itself accepts only '_'
    std::replace(dashed.begin(), dashed.end(), '-', '_');
    if (dashed != name && gflags::GetCommandLineFlagInfo(dashed.c_str(), &info)) {
      if (!has_value && info.type != "bool") ++i;
      continue;
    }
    const std::string suggestion = closest_flag(name, known);
    return runtime::fail(runtime::Error::InvalidArgument, "unknown flag '--%s'%s%s%s", printable(name).c_str(),
                         suggestion.empty() ? "" : "; did you mean '--", suggestion.c_str(),
                         suggestion.empty() ? " (--help lists the flags)" : "'?");
  }
  return runtime::Error::Ok;
}

}  // namespace ember::apps
