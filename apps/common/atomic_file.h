// One way to write an output file: atomically, or not at all (issue #33).
//
// AtomicFile writes into a new temporary file in the target's own folder
// (".<name>.tmp-XXXXXX", so the final rename never crosses a file system), checks every
// write, then commit() fsyncs and closes it, renames it over the target and fsyncs the
// folder. Until commit() succeeds the target is untouched: a full disk, a failed fsync or
// close, a crash or kill -9 leave any previous file exactly as it was. On failure (or when
// the AtomicFile is destroyed uncommitted) the temporary is removed; only kill -9 can leave
// one behind, named by the pattern above. Every failure is AccessFailed naming the target,
// the step and strerror, and saying that the previous file is intact. The new file gets
// mode 0666 & ~umask, like fopen; the target's inode is replaced (hard links to the old file
// keep the old contents).
//
//   EMBER_ASSIGN_OR_RETURN(AtomicFile out, AtomicFile::create("model.pte"));
//   EMBER_TRY(out.write(bytes.data(), bytes.size()));
//   EMBER_TRY(out.commit());
//
// Faults can be injected for tests (set_write_fault_hook) or, in a tool's own tests, with
// EMBER_WRITE_FAULT=<step>:<errno name> (e.g. "write:ENOSPC"); see write_fault.h.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "runtime/core/result.h"

namespace ember::apps {

using runtime::Error;
using runtime::Result;

class AtomicFile {
 public:
  // Creates the temporary file for `path` in its folder. AccessFailed if the folder is
  // missing or not writable, or `path` names a directory.
  static Result<AtomicFile> create(const std::string& path);

  AtomicFile(AtomicFile&& other) noexcept;
  AtomicFile& operator=(AtomicFile&&) = delete;
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile();  // uncommitted: closes and removes the temporary

  // Appends `size` bytes (retrying short writes and EINTR).
  Error write(const void* data, size_t size);
  Error write(const std::string& text) { return write(text.data(), text.size()); }
  // fsync, close, rename over the target, fsync the folder. After a failure the temporary is
  // gone and the target untouched (or, if only the folder's fsync failed, renamed but
  // perhaps not durable: reported as an error all the same).
  Error commit();
  // The fsync and close of commit() alone (commit() then only renames): commit_all() runs it
  // for every file of a set before the first rename.
  Error finish_writing();

  const std::string& path() const { return path_; }
  const std::string& temp_path() const { return temp_; }

 private:
  AtomicFile(std::string path, std::string temp, int fd)
      : path_(std::move(path)), temp_(std::move(temp)), fd_(fd) {}
  Error fail_step(const char* step, int error_number);
  void discard();

  std::string path_;
  std::string temp_;
  int fd_ = -1;
  bool done_ = false;  // committed or discarded
};

// Commits the outputs of one run as a set: every file is synced and closed before the first
// rename, so a failure of any but a rename leaves every previous file as it was. (A rename
// failing after an earlier one succeeded, which needs the folder to change under the run,
// leaves the earlier file new.)
Error commit_all(std::vector<AtomicFile>& files);

// create + write + commit of one buffer.
Error write_file_atomically(const std::string& path, const void* data, size_t size);
inline Error write_file_atomically(const std::string& path, const std::string& text) {
  return write_file_atomically(path, text.data(), text.size());
}

}  // namespace ember::apps
