// Fault injection for AtomicFile (tests only): make one step of a write fail with an errno,
// as a full disk or a failing device would, without needing one.
//
// In-process tests install a hook; tools' shell tests set EMBER_WRITE_FAULT=<step>:<errno>
// (steps: open, write, fsync, close, rename; errnos: ENOSPC, EIO, EDQUOT, EACCES), read on
// every step, or <step>:<errno>:<suffix> to fail only targets whose path ends with <suffix>
// (lower --batch's summary while its children write their .pte files). A hook, if installed, takes precedence over the variable.
#pragma once

#include <functional>
#include <string>

namespace ember::apps {

enum class WriteStep { Open, Write, Fsync, Close, Rename };

const char* to_string(WriteStep step);

// Returns 0 to let the step run, or the errno it fails with. `path` is the target.
using WriteFaultHook = std::function<int(WriteStep step, const std::string& path)>;

// Installs `hook` for this process (an empty function removes it). Not thread-safe: tests
// install it before writing.
void set_write_fault_hook(WriteFaultHook hook);

// The errno step `step` of writing `path` should fail with (0: none).
int injected_write_fault(WriteStep step, const std::string& path);

}  // namespace ember::apps
