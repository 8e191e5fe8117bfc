// Deterministic run of the XnnpackBackend payload fuzz target in the ordinary test suite:
// every seed initialises and runs; the XnnpackBackend payloads of the shared upstream .pte
// files (when present) replay through the entry point; then 4,000 seeded random mutations
// (bit flips, byte and u32 overwrites with boundary values, truncation, insertion) go
// through LLVMFuzzerTestOneInput and XnnpackBackend::init, and every rejected payload must
// leave a message naming the XNNPACK delegate. The libFuzzer build (xnnpack_run_fuzz.sh)
// explores further under ASan/UBSan.
#include <dirent.h>
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <random>
#include <string>

#include "backends/xnnpack/runtime/xnnpack_backend.h"
#include "runtime/core/diagnostics.h"
#include "tests/fuzz/xnnpack_seeds.h"
#include "tests/support/shared_fixtures.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace ember::testing {
namespace {

using backends::xnnpack::backend_instance;

// Initialises `blob` as the fuzz target does; returns Ok or the init error.
runtime::Error init_only(std::vector<uint8_t> blob) {
  std::vector<uint8_t> arena(1 << 20);
  runtime::MemoryAllocator allocator(arena.data(), arena.size());
  runtime::BackendInitContext ctx(&allocator, "forward", &xnnpack_seed_named_data());
  runtime::FreeableBuffer buffer(blob.data(), blob.size());
  auto h = backend_instance().init(ctx, &buffer, {});
  if (!h.ok()) return h.error();
  backend_instance().destroy(h.get());
  return runtime::Error::Ok;
}

std::vector<uint8_t> mutate(std::vector<uint8_t> b, std::mt19937* rng) {
  if (b.empty()) return b;
  auto at = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(*rng); };
  static const uint32_t kInteresting[] = {0, 1, 2, 3, 4, 6, 7, 16, 255, 0x7FFF, 0xFFFF, 0x7FFFFFFF,
                                          0x80000000u, 0xFFFFFFFEu, 0xFFFFFFFFu};
  switch (at(6)) {
    case 0:
      b[at(b.size())] ^= static_cast<uint8_t>(1u << at(8));
      break;
    case 1:
      b[at(b.size())] = static_cast<uint8_t>(at(256));
      break;
    case 2:
      if (b.size() >= 4) {  // an aligned u32 (offsets, ids, dims, counts)
        const size_t pos = 4 * at(b.size() / 4);
        const uint32_t v = kInteresting[at(sizeof(kInteresting) / sizeof(kInteresting[0]))];
        for (int i = 0; i < 4; ++i) b[pos + i] = static_cast<uint8_t>(v >> (8 * i));
      }
      break;
    case 3:
      b.resize(at(b.size()));
      break;
    case 4:
      b.insert(b.begin() + static_cast<long>(at(b.size())), 4, static_cast<uint8_t>(at(256)));
      break;
    default:
      if (b.size() >= 32) b[8 + at(24)] = static_cast<uint8_t>(at(256));  // XH00 header fields
      break;
  }
  return b;
}

TEST(XnnpackBlobFuzz, SeedsInitialiseAndRun) {
  const auto seeds = xnnpack_seed_blobs();
  ASSERT_GE(seeds.size(), 7u);
  for (const auto& [name, blob] : seeds) {
    EXPECT_EQ(init_only(blob), runtime::Error::Ok) << name << ": " << runtime::last_error_message();
    EXPECT_EQ(LLVMFuzzerTestOneInput(blob.data(), blob.size()), 0) << name;
  }
}

TEST(XnnpackBlobFuzz, EmptyAndTinyInputsGiveNamedErrors) {
  for (size_t n : {0, 1, 7, 8, 31}) {
    std::vector<uint8_t> b(n, 0);
    runtime::clear_error_message();
    EXPECT_NE(init_only(b), runtime::Error::Ok) << n;
    EXPECT_NE(std::string(runtime::last_error_message()).find("XnnpackBackend"), std::string::npos)
        << n << ": " << runtime::last_error_message();
    EXPECT_EQ(LLVMFuzzerTestOneInput(b.data(), b.size()), 0);
  }
}

// Upstream's payloads (XnnpackBackend programs of the shared corpus) through the target.
TEST(XnnpackBlobFuzz, SharedUpstreamPayloadsReplay) {
  const std::string shared = shared_dir();
  if (shared.empty()) GTEST_SKIP() << skip_message();
  const std::string dir = shared + "/fixtures/executorch-pte";
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) GTEST_SKIP() << dir << " not found";
  size_t found = 0, initialised = 0;
  while (dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (name.size() < 4 || name.substr(name.size() - 4) != ".pte") continue;
    std::ifstream in(dir + "/" + name, std::ios::binary);
    std::vector<uint8_t> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (const auto& blob : extract_xnnpack_blobs(file, 1 << 20)) {
      ++found;
      if (init_only(blob) == runtime::Error::Ok) ++initialised;
      EXPECT_EQ(LLVMFuzzerTestOneInput(blob.data(), blob.size()), 0) << name;
    }
  }
  closedir(d);
  std::printf("%zu upstream XnnpackBackend payloads, %zu initialise standalone\n", found, initialised);
  EXPECT_GT(found, 5u);
  EXPECT_GT(initialised, 0u);
}

// Found by a 2026-11-28 xnnpack_blob_fuzz run (LeakSanitizer): a payload whose one subgraph
// stage fails runtime creation (unsupported_parameter) in the init plan, which has no shared
// workspace. XNNPACK 2024-11 given a null workspace allocates one and leaks it (40 bytes) when
// creation fails; the plan now creates and releases its own (shape_plan.cc). The sanitizer
// suite (--config=asan) fails without that.
TEST(XnnpackBlobFuzz, FailedRuntimeCreationLeaksNothing) {
  std::vector<uint8_t> bytes;
  ASSERT_TRUE(read_file(runfiles_root() + "/tests/fuzz/testdata/xnnpack_runtime_create_fails.bin", &bytes));
  const runtime::Error e = init_only(bytes);
  EXPECT_NE(e, runtime::Error::Ok);
  EXPECT_NE(std::string(runtime::last_error_message()).find("xnn_create_runtime_v4"), std::string::npos)
      << runtime::last_error_message();
  LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
}

// Found by a 2026-11-28 xnnpack_blob_fuzz run (UndefinedBehaviorSanitizer: member call on a
// misaligned flatbuffers::Vector): a header whose flatbuffer offset is 30, not a multiple of 4,
// so the XNNGraph's 4-byte fields sit at misaligned addresses; FlatBuffers checks alignment only
// relative to the buffer's start and reads in place. The reader now verifies an aligned copy (graph_reader.cc).
// The sanitizer suite (--config=asan) fails without that.
TEST(XnnpackBlobFuzz, AMisalignedFlatbufferIsReadFromAnAlignedCopy) {
  std::vector<uint8_t> bytes;
  ASSERT_TRUE(read_file(runfiles_root() + "/tests/fuzz/testdata/xnnpack_misaligned_flatbuffer.bin", &bytes));
  (void)init_only(bytes);  // an error or not: what matters is no undefined behaviour on the way
  LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
}

// Found by CI's own xnnpack_blob_fuzz slice (seed 1) once the few_rows_conv seed existed
// (UndefinedBehaviorSanitizer: misaligned float load in pack_few_rows_filter): a 1x1 conv
// whose filter sits at an odd offset of the constant region. The delegate-run stages
// (Winograd, grouped16, few-rows) now take only 4-byte-aligned filters and biases; the rest
// stay with XNNPACK. The sanitizer suite (--config=asan) fails without that.
TEST(XnnpackBlobFuzz, AMisalignedFilterStaysWithXnnpack) {
  std::vector<uint8_t> bytes;
  ASSERT_TRUE(read_file(runfiles_root() + "/tests/fuzz/testdata/xnnpack_misaligned_stage_filter.bin", &bytes));
  (void)init_only(bytes);
  LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
}

TEST(XnnpackBlobFuzz, RandomMutationsGiveNamedErrors) {
  std::mt19937 rng(20261121);
  const auto seeds = xnnpack_seed_blobs();
  size_t loaded = 0, rejected = 0;
  for (int i = 0; i < 4000; ++i) {
    std::vector<uint8_t> b = seeds[static_cast<size_t>(i) % seeds.size()].second;
    const int rounds = 1 + i % 3;
    for (int r = 0; r < rounds; ++r) b = mutate(std::move(b), &rng);
    (void)LLVMFuzzerTestOneInput(b.data(), b.size());
    runtime::clear_error_message();
    if (init_only(b) == runtime::Error::Ok) {
      ++loaded;
      continue;
    }
    ++rejected;
    const std::string message = runtime::last_error_message();
    ASSERT_NE(message.find("XnnpackBackend"), std::string::npos) << "mutation " << i << ": " << message;
  }
  std::printf("%zu mutations initialised, %zu rejected\n", loaded, rejected);
  EXPECT_GT(rejected, 1000u);
  EXPECT_GT(loaded, 100u);  // some mutations stay valid and run
}

}  // namespace
}  // namespace ember::testing
