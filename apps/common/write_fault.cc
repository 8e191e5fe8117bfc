// Write fault injection (see write_fault.h).
#include "apps/common/write_fault.h"

#include <errno.h>

#include <cstdlib>
#include <cstring>

namespace ember::apps {
namespace {

WriteFaultHook& hook() {
  static WriteFaultHook h;
  return h;
}

int errno_named(const char* name) {
  struct Named {
    const char* name;
    int value;
  };
  static const Named kErrnos[] = {
      {"ENOSPC", ENOSPC}, {"EIO", EIO}, {"EDQUOT", EDQUOT}, {"EACCES", EACCES}};
  for (const Named& e : kErrnos) {
    if (std::strcmp(e.name, name) == 0) return e.value;
  }
  return EIO;  // an unknown name still fails the step
}

}  // namespace

const char* to_string(WriteStep step) {
  switch (step) {
    case WriteStep::Open:
      return "open";
    case WriteStep::Write:
      return "write";
    case WriteStep::Fsync:
      return "fsync";
    case WriteStep::Close:
      return "close";
    case WriteStep::Rename:
      return "rename";
  }
  return "?";
}

void set_write_fault_hook(WriteFaultHook h) { hook() = std::move(h); }

int injected_write_fault(WriteStep step, const std::string& path) {
  if (hook()) return hook()(step, path);
  const char* spec = std::getenv("EMBER_WRITE_FAULT");
  if (spec == nullptr || *spec == '\0') return 0;
  const char* colon = std::strchr(spec, ':');
  if (colon == nullptr) return 0;
  const std::string name(spec, static_cast<size_t>(colon - spec));
  if (name != to_string(step)) return 0;
  const std::string rest = colon + 1;  // "<errno>" or "<errno>:<target suffix>"
  const size_t second = rest.find(':');
  if (second != std::string::npos) {
    const std::string suffix = rest.substr(second + 1);
    if (path.size() < suffix.size() || path.compare(path.size() - suffix.size(), suffix.size(), suffix) != 0) return 0;
  }
  return errno_named(rest.substr(0, second).c_str());
}

}  // namespace ember::apps
