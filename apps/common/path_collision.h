// Path collisions between the files one run reads and writes (issue #33).
//
// Before a tool writes anything it lists its inputs and outputs (each with the flag that named
// it) and calls check_path_collisions(): every output is compared with every input and with
// every other output. Two paths are the same file when both exist and have the same device
// and inode (this catches "./m.pte" vs "m.pte", symlinks and hard links), or when their
// normalised absolute paths are equal (this catches outputs that do not exist yet, like
// `same.pte` and `./same.pte` in one batch). The error is InvalidArgument naming both flags
// and both paths, and is found before any work, so the tool exits with the usage status.
#pragma once

#include <string>
#include <vector>

#include "runtime/core/error.h"

namespace ember::apps {

struct PathUse {
  std::string flag;  // what named it, for the message: "-o", "--debug_out", "batch entry 2 -o"
  std::string path;
};

// The absolute, normalised form of `path` ("." and ".." resolved, repeated '/' folded, the
// existing part of the path resolved through symlinks with realpath()).
std::string normalised_path(const std::string& path);

// True when `a` and `b` name the same file (see above).
bool same_file(const std::string& a, const std::string& b);

// InvalidArgument naming the first collision: an output that is an input, or two outputs
// that are one file. Ok when all differ.
runtime::Error check_path_collisions(const std::vector<PathUse>& inputs,
                                     const std::vector<PathUse>& outputs);

}  // namespace ember::apps
