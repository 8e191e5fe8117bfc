// Locates the read-only fixture corpus in ../shared beside the checkout.
//
// Tests that read real upstream files call shared_dir(); when it returns an empty
// string the corpus is absent and the test must GTEST_SKIP() with skip_message().
// The corpus is found, in order, through $EMBER_SHARED_DIR, or through the real
// path of the WORKSPACE file in the test's runfiles (the test must list
// "//:WORKSPACE" in its data), whose parent's sibling is shared/.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ember::testing {

// Absolute path of the shared/ directory, or "" if it does not exist.
std::string shared_dir();

// The message to skip with when shared_dir() is empty.
const char* skip_message();

// Reads a whole file; returns false if it cannot be read.
bool read_file(const std::string& path, std::vector<uint8_t>* out);

// The test's runfiles root (the repository as the test sees it), or "." outside Bazel.
std::string runfiles_root();

// Path of a committed .pt2 fixture, tests/fixtures/pt2/<name>, inside the test's runfiles
// (the test lists "//tests/fixtures:pt2" in its data).
std::string committed_pt2_fixture(const std::string& name);

// Names (not paths) of the regular files in `dir` that end with `suffix`, sorted.
std::vector<std::string> list_files(const std::string& dir, const std::string& suffix);

}  // namespace ember::testing
