// demo_seed_blobs (see demo_seeds.h).
#include "tests/fuzz/demo_seeds.h"

#include "backends/demo/runtime/test_blob.h"

namespace ember::testing {

using backends::demo::testing::TestBlob;

std::vector<std::pair<std::string, std::vector<uint8_t>>> demo_seed_blobs() {
  std::vector<std::pair<std::string, std::vector<uint8_t>>> out;
  {
    TestBlob g;  // mm(a, x) + b
    g.input({2, 2});
    g.input({2, 2});
    g.input({2, 2});
    g.output({2, 2});
    g.scratch({2, 2});
    g.op(0x10, 4, 0, 1);
    g.op(0x01, 3, 4, 2);
    out.emplace_back("mm_add", g.bytes());
  }
  {
    TestBlob g;  // every unary op in a chain, then binary ops with constants
    g.input({3});
    g.output({3});
    g.output({1});
    g.scratch({3});
    g.constant({3}, {1, -2, 0.5f});
    g.constant({}, {2});
    const uint8_t unary[] = {0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27};
    g.op(unary[0], 3, 0);
    for (uint8_t op : unary) g.op(op, 3, 3);
    const uint8_t binary[] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06};
    for (uint8_t op : binary) g.op(op, 3, 3, 4);
    g.op(0x03, 1, 3, 5);
    g.op(0x02, 2, 5, 5);
    out.emplace_back("ops", g.bytes());
  }
  {
    TestBlob g;  // rank 0 and rank 4
    g.input({});
    g.input({1, 2, 1, 3});
    g.output({1, 2, 1, 3});
    g.op(0x03, 2, 1, 0);
    out.emplace_back("ranks", g.bytes());
  }
  return out;
}

}  // namespace ember::testing
