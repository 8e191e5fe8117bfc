// Upstream interop of the writer: every upstream .pte in
// shared/fixtures/executorch-pte is lifted into an EmitProgram, written again by
// our writer, and compared with the original: the runtime-visible content must
// be identical (values, tensors with their resolved data, instructions,
// operators, delegates with their blobs, named data), our file must pass the
// checker with no violation, and the segment layout (DataSegment offsets and
// sizes, constant_segment offsets, the segment bytes) must equal upstream's.
#include <gtest/gtest.h>

#include <set>

#include "aot/emit/pte_writer.h"
#include "apps/pte_check/pte_check.h"
#include "tests/emit/pte_view.h"
#include "tests/support/shared_fixtures.h"

namespace ember::aot {
namespace {

namespace fb = executorch_flatbuffer;
using namespace emit_test;

bool has_inline_blob(const fb::Program* p) {
  for (const fb::ExecutionPlan* plan : *p->execution_plan()) {
    for (const fb::BackendDelegate* d : *plan->delegates()) {
      if (d->processed()->location() == fb::DataLocation::INLINE &&
          p->backend_delegate_data()->Get(d->processed()->index())->data()->size() > 0) {
        return true;
      }
    }
  }
  return false;
}

// "[off,size] ..." of the DataSegments, and the constant offsets.
std::string layout(const fb::Program* p) {
  std::string s;
  if (p->segments()) {
    for (const fb::DataSegment* d : *p->segments()) {
      s += "[" + std::to_string(d->offset()) + "," + std::to_string(d->size()) + "]";
    }
  }
  s += " const";
  if (p->constant_segment() && p->constant_segment()->offsets()) {
    for (uint64_t o : *p->constant_segment()->offsets()) s += " " + std::to_string(o);
  }
  return s;
}

uint64_t region_end(const fb::Program* p) {
  uint64_t end = 0;
  if (p->segments()) {
    for (const fb::DataSegment* d : *p->segments()) end = std::max(end, d->offset() + d->size());
  }
  return end;
}

TEST(FixtureReemit, UpstreamFilesRoundTripThroughOurWriter) {
  std::string shared = ember::testing::shared_dir();
  if (shared.empty()) GTEST_SKIP() << ember::testing::skip_message();
  std::string dir = shared + "/fixtures/executorch-pte";
  int compared = 0;
  for (const std::string& name : ember::testing::list_files(dir, ".pte")) {
    SCOPED_TRACE(name);
    std::vector<uint8_t> original;
    ASSERT_TRUE(ember::testing::read_file(dir + "/" + name, &original));
    PteView theirs(original);
    ASSERT_TRUE(theirs.ok());
    EmitProgram program;
    std::string why;
    ASSERT_TRUE(lift_pte(theirs, &program, &why)) << why;
    EmitOptions options;
    options.extract_delegate_segments = !has_inline_blob(theirs.program());
    std::vector<uint8_t> bytes;
    Error s = write_pte(program, &bytes, options);
    ASSERT_EQ(s, Error::Ok) << format_error(s);
    PteView ours(bytes);
    ASSERT_TRUE(ours.ok());
    for (const std::string& d : compare_ptes(theirs, ours)) ADD_FAILURE() << d;
    for (const PteViolation& v : check_pte(bytes)) ADD_FAILURE() << v.to_string();
    ++compared;

    const fb::SubsegmentOffsets* cs = theirs.program()->constant_segment();
    bool deprecated = cs == nullptr || cs->offsets() == nullptr || cs->offsets()->size() == 0;
    if (deprecated) continue;  // inline constants: no upstream segment layout to match
    EXPECT_EQ(layout(ours.program()), layout(theirs.program()));
    uint64_t end = region_end(theirs.program());
    if (end > 0 && theirs.has_header()) {
      std::vector<uint8_t> a(original.begin() + theirs.segment_base(),
                             original.begin() + theirs.segment_base() + end);
      std::vector<uint8_t> b(bytes.begin() + ours.segment_base(), bytes.end());
      EXPECT_TRUE(a == b) << "segment bytes differ (" << a.size() << " vs " << b.size() << ")";
    }
    EXPECT_EQ(ours.has_header(), theirs.has_header());
  }
  EXPECT_GE(compared, 40);
}

}  // namespace
}  // namespace ember::aot
