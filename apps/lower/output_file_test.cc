// write_output_file: the bytes land in the file, an existing file is replaced, and a path
// that cannot be written is AccessFailed naming it (expected values written by hand).
#include "apps/lower/output_file.h"

#include <cerrno>

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

#include "apps/common/write_fault.h"

namespace ember::aot {
namespace {

std::string tmp(const std::string& name) {
  return std::string(std::getenv("TEST_TMPDIR")) + "/" + name;
}

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

TEST(OutputFileTest, WritesAndReplaces) {
  const std::string path = tmp("out.bin");
  ASSERT_EQ(write_output_file(path, std::string("a longer first version")), Error::Ok);
  const std::vector<uint8_t> bytes = {'E', 'T', 0, '1', '2'};
  ASSERT_EQ(write_output_file(path, bytes), Error::Ok);
  EXPECT_EQ(read_all(path), std::string("ET\0"
                                        "12",
                                        5));
}

TEST(OutputFileTest, EmptyFileIsWritten) {
  const std::string path = tmp("empty.bin");
  ASSERT_EQ(write_output_file(path, std::string()), Error::Ok);
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good());
  EXPECT_EQ(read_all(path), "");
}

TEST(OutputFileTest, UnwritablePathIsAccessFailedNamingIt) {
  const std::string path = tmp("no_such_dir/out.pte");
  EXPECT_EQ(write_output_file(path, std::string("x")), Error::AccessFailed);
  EXPECT_NE(std::string(last_error_message()).find(path), std::string::npos)
      << last_error_message();
}

// A full disk in the middle of the write: an error, and the previous output is untouched.
TEST(OutputFileTest, FailedWriteKeepsThePreviousFile) {
  const std::string path = tmp("kept.pte");
  ASSERT_EQ(write_output_file(path, std::string("the previous good program")), Error::Ok);
  apps::set_write_fault_hook([](apps::WriteStep step, const std::string&) {
    return step == apps::WriteStep::Write ? ENOSPC : 0;
  });
  const Error e = write_output_file(path, std::string("a new program that does not fit"));
  apps::set_write_fault_hook(nullptr);
  EXPECT_EQ(e, Error::AccessFailed);
  EXPECT_EQ(read_all(path), "the previous good program");
}

}  // namespace
}  // namespace ember::aot
