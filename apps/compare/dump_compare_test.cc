// dump_compare on hand-made dumps: SQNR and max error from hand-derived sums, the jump rule
// (first layer below 60 dB and 10 dB under every earlier one), lining up by name, and named
// errors for malformed indexes.
#include "apps/compare/dump_compare.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "apps/diagnostics/npy.h"
#include "runtime/core/diagnostics.h"

namespace ember::aot {
namespace {

std::string tmp(const std::string& name) {
  const char* t = getenv("TEST_TMPDIR");
  const std::string dir = std::string(t != nullptr ? t : "/tmp") + "/" + name;
  mkdir(dir.c_str(), 0755);
  return dir;
}

struct Layer {
  std::string name;
  std::vector<float> values;
};

// Writes a dump with one float32 [n] entry per layer.
std::string write_dump(const std::string& name, const std::vector<Layer>& layers) {
  const std::string dir = tmp(name);
  std::string index = R"({"format":"ember.dump","version":1,"model":"m.pte","method":"forward","entries":[)";
  for (size_t i = 0; i < layers.size(); ++i) {
    const int32_t n = int32_t(layers[i].values.size());
    const std::string file = std::to_string(i) + ".npy";
    EXPECT_EQ(runtime::write_npy(dir + "/" + file, runtime::ScalarType::Float, runtime::Span<const int32_t>(&n, 1),
                                 layers[i].values.data(), layers[i].values.size() * 4),
              Error::Ok);
    index += (i ? "," : "") + std::string(R"({"name":")") + layers[i].name + R"(","op":"aten::x","dtype":"float32",)" +
             R"("shape":[)" + std::to_string(n) + R"(],"file":")" + file + R"("})";
  }
  index += "]}";
  FILE* f = fopen((dir + "/index.json").c_str(), "w");
  fputs(index.c_str(), f);
  fclose(f);
  return dir;
}

TEST(DumpCompare, SqnrAndMaxAbsByHand) {
  double max_abs = 0;
  // signal 1 + 4 + 9 + 16 = 30, noise 1: 10 log10(30) = 14.771 dB.
  EXPECT_NEAR(sqnr_db({1, 2, 3, 4}, {1, 2, 3, 5}, &max_abs), 14.7712125, 1e-6);
  EXPECT_EQ(max_abs, 1);
  EXPECT_EQ(sqnr_db({1, 2}, {1, 2}, &max_abs), INFINITY);
  EXPECT_EQ(sqnr_db({0, 0}, {0, 1}, &max_abs), -INFINITY);
  EXPECT_EQ(sqnr_db({NAN, 1}, {NAN, 1}, &max_abs), INFINITY);
  EXPECT_EQ(sqnr_db({1, 1}, {NAN, 1}, &max_abs), -INFINITY);
}

TEST(DumpCompare, NamesTheFirstLayerWhoseErrorJumps) {
  // Layer a exact; b off by float rounding (~1e-7 relative: ~140 dB, never a jump); c off by
  // 0.1 on values of 1 (20 dB: the jump); d worse still but not 10 dB under c (15 dB).
  const std::vector<float> ones(100, 1.0f);
  std::vector<float> tiny = ones, tenth = ones, worse = ones;
  for (float& v : tiny) v = std::nextafter(1.0f, 2.0f);
  for (float& v : tenth) v = 1.1f;
  for (size_t i = 0; i < worse.size(); ++i) worse[i] = 1.0f + (i % 2 ? 0.2f : 0.15f);
  const std::string ref = write_dump("ref", {{"a", ones}, {"b", ones}, {"c", ones}, {"d", ones}, {"r", ones}});
  const std::string other = write_dump("other", {{"a", ones}, {"b", tiny}, {"c", tenth}, {"d", worse}, {"x", ones}});
  Result<Dump> da = load_dump(ref), db = load_dump(other);
  ASSERT_TRUE(da.ok() && db.ok()) << last_error_message();
  Result<CompareReport> r = compare_dumps(*da, *db);
  ASSERT_TRUE(r.ok()) << last_error_message();
  ASSERT_EQ(r->layers.size(), 4u);
  EXPECT_EQ(r->only_in_a, 1u);
  EXPECT_EQ(r->only_in_b, 1u);
  EXPECT_EQ(r->layers[0].sqnr_db, INFINITY);
  EXPECT_GT(r->layers[1].sqnr_db, 130);
  EXPECT_NEAR(r->layers[2].sqnr_db, 20.0, 0.01);  // noise 0.01 per element: 10 log10(100)
  EXPECT_NEAR(r->layers[2].max_abs, 0.1, 1e-6);
  ASSERT_EQ(r->first_jump, 2);
  EXPECT_EQ(r->layers[2].name, "c");
  EXPECT_FALSE(r->layers[3].jump);
  EXPECT_NE(format_report(*da, *db, *r, JumpRule()).find("first jump: c "), std::string::npos);
  // Rounding noise alone is never a jump.
  Result<CompareReport> same = compare_dumps(*da, *da);
  EXPECT_EQ(same->first_jump, -1);
}

TEST(DumpCompare, ShapeMismatchIsNotedNotCompared) {
  const std::string a = write_dump("shape_a", {{"a", {1, 2, 3}}});
  const std::string b = write_dump("shape_b", {{"a", {1, 2}}});
  Result<CompareReport> r = compare_dumps(*load_dump(a), *load_dump(b));
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->layers.size(), 1u);
  EXPECT_FALSE(r->layers[0].compared);
  EXPECT_NE(r->layers[0].note.find("shape differs"), std::string::npos);
}

TEST(DumpCompare, MalformedIndexesAreNamedErrors) {
  auto with_index = [](const std::string& name, const std::string& text) {
    const std::string dir = tmp(name);
    FILE* f = fopen((dir + "/index.json").c_str(), "w");
    fputs(text.c_str(), f);
    fclose(f);
    return load_dump(dir).error();
  };
  EXPECT_EQ(load_dump(tmp("empty_dir")).error(), Error::NotFound);
  EXPECT_EQ(with_index("m1", "not json"), Error::InvalidArgument);
  EXPECT_EQ(with_index("m2", R"({"format":"other","version":1,"entries":[]})"), Error::InvalidArgument);
  EXPECT_EQ(with_index("m3", R"({"format":"ember.dump","version":2,"entries":[]})"), Error::InvalidArgument);
  EXPECT_EQ(with_index("m4", R"({"format":"ember.dump","version":1,"entries":[{"name":"a","file":"../x.npy"}]})"),
            Error::InvalidArgument);
  EXPECT_EQ(with_index("m5", R"({"format":"ember.dump","version":1,"entries":[{"name":3}]})"),
            Error::InvalidArgument);
  // A listed file that is not a valid .npy is a named error at compare time.
  const std::string dir = tmp("m6");
  FILE* f = fopen((dir + "/0.npy").c_str(), "w");
  fputs("garbage", f);
  fclose(f);
  with_index("m6", R"({"format":"ember.dump","version":1,"entries":[{"name":"a","file":"0.npy","shape":[1]}]})");
  Result<Dump> d = load_dump(dir);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(compare_dumps(*d, *d).error(), Error::InvalidArgument);
}

// Issue #33: a dump whose index.json is /dev/zero aborted compare (an endless read); a FIFO
// would block in open(). Both are AccessFailed naming the file, at once.
TEST(DumpCompare, NonRegularIndexIsRefusedBeforeReading) {
  const std::string zero = tmp("dev_zero");
  ASSERT_EQ(symlink("/dev/zero", (zero + "/index.json").c_str()), 0);
  EXPECT_EQ(load_dump(zero).error(), Error::AccessFailed);
  EXPECT_NE(std::string(runtime::last_error_message()).find("index.json"), std::string::npos)
      << runtime::last_error_message();
  const std::string fifo = tmp("fifo");
  ASSERT_EQ(mkfifo((fifo + "/index.json").c_str(), 0644), 0);
  EXPECT_EQ(load_dump(fifo).error(), Error::AccessFailed);
  const std::string dir = tmp("dir_index");
  mkdir((dir + "/index.json").c_str(), 0755);
  EXPECT_EQ(load_dump(dir).error(), Error::AccessFailed);
}

// Issue #33: names, ops and sources from a dump reach the terminal escaped (a forged line or
// ESC[8m would hide the rest of the report).
TEST(DumpCompare, ReportEscapesStringsFromTheDump) {
  const std::string evil = R"(a\u001b[8m\ncompare: OK)";  // JSON escapes: ESC and a newline
  const std::string a = write_dump("esc_a", {{evil, {1, 2, 3}}});
  const std::string b = write_dump("esc_b", {{evil, {1, 2, 3}}});
  Result<Dump> da = load_dump(a), db = load_dump(b);
  ASSERT_TRUE(da.ok() && db.ok());
  ASSERT_EQ(da->entries[0].name, "a\x1b[8m\ncompare: OK");
  Result<CompareReport> r = compare_dumps(*da, *db);
  ASSERT_TRUE(r.ok());
  const std::string text = format_report(*da, *db, *r, JumpRule());
  EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
  EXPECT_EQ(text.find("\ncompare: OK"), std::string::npos) << text;
  EXPECT_NE(text.find("a\\x1b[8m\\x0acompare: OK"), std::string::npos) << text;
}

}  // namespace
}  // namespace ember::aot
