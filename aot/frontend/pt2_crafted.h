// Test helpers: issue #33's crafted .pt2 files, made from a real PT2 archive (torch >= 2.9
// layout, raw weight records) or a legacy zip, for the reader's bound tests and the pt2 fuzz
// seeds. Each returns the new file's bytes (empty, with a gtest failure, if `file` lacks what
// the edit needs).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "aot/frontend/zip_test_util.h"

namespace ember::aot::testing {

// Replaces the first `from` in the entry whose name ends with `entry`; false (and a gtest
// failure) if either is missing.
bool replace_in(ZipEntries& entries, const std::string& entry, const std::string& from,
                const std::string& to);

// The first node's "stack_trace" becomes `depth` nested lists (the string that was there is
// kept under an extra key, so the JSON stays valid); `deflate` re-packs it compressed (1M
// levels: about 21 KB, issue #33's file).
std::vector<uint8_t> with_deep_stack_trace(const std::vector<uint8_t>& archive, size_t depth,
                                           bool deflate = false);

// The first node's "stack_trace" starts with terminal control bytes and a forged tool line
// (issue #33's injection: ESC[8m hides what follows, "\n<tool>: OK ..." fakes a result).
std::vector<uint8_t> with_control_bytes_stack_trace(const std::vector<uint8_t>& archive);

// `count` weight-config entries for FQNs the graph does not have ("unused.<i>"), each a
// float32 tensor of `elements`. Zero-length records: all on one empty record. Otherwise each
// on its own record of 4 * `elements` zero bytes, and the archive is re-packed deflated.
std::vector<uint8_t> with_unused_records(const std::vector<uint8_t>& archive, int count,
                                         int64_t elements, bool zero_length);

// Entry `name` twice: the second copy (holding `second_text`) is added under a name of the
// same length and renamed in the raw bytes (libzip refuses to write duplicates itself).
std::vector<uint8_t> with_duplicate_entry(const std::vector<uint8_t>& file, const std::string& name,
                                          const std::string& second_text);

}  // namespace ember::aot::testing
