// The demo AoT half: supports() answers with reasons, compile_subgraph on graphs built in
// C++, the compiled bytecode run by the runtime half's verifier + interpreter against
// hand-computed values, copies for pass-through outputs, the disassembly listing, and
// compile errors that name the node.
#include "backends/demo/aot/demo_compiler.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "aot/ir/testing/graph_builder.h"
#include "backends/demo/aot/bytecode_writer.h"
#include "backends/demo/aot/demo_partitioner.h"
#include "backends/demo/runtime/bytecode_program.h"
#include "backends/demo/runtime/interpreter.h"
#include "backends/demo/runtime/test_blob.h"
#include "runtime/core/diagnostics.h"

namespace ember::backends::demo {
namespace {

using aot::testing::GraphBuilder;
using testing::HeapTensor;

struct Loaded {
  std::vector<uint8_t> arena = std::vector<uint8_t>(1 << 16);
  runtime::MemoryAllocator allocator{arena.data(), arena.size()};
  DemoProgram* program = nullptr;
};

void load(const std::vector<uint8_t>& blob, Loaded* r) {
  auto p = load_program(blob.data(), blob.size(), &r->allocator);
  ASSERT_TRUE(p.ok()) << runtime::last_error_message();
  r->program = p.get();
}

runtime::Error run(Loaded& r, std::vector<HeapTensor*> args) {
  std::vector<runtime::EValue*> v;
  for (HeapTensor* t : args) v.push_back(&t->value);
  return run_program(*r.program, {v.data(), v.size()});
}

TEST(DemoCompiler, MmAddReluWithConstant) {
  // relu(mm(x, w) + x - 10), w a parameter.
  GraphBuilder b;
  auto w = b.parameter("w", {2, 2}, {1, 0, 1, 1});
  auto x = b.input("x", {2, 2});
  auto ten = b.parameter("ten", {}, {10});
  auto mm = b.op("aten::mm.default", {{"self", x}, {"mat2", w}}, "mm_0", {2, 2});
  auto add = b.op("aten::add.Tensor", {{"self", mm}, {"other", x}}, "add_1", {2, 2});
  auto sub = b.op("aten::sub.Tensor", {{"self", add}, {"other", ten}}, "sub_2", {2, 2});
  auto relu = b.op("aten::relu.default", {{"self", sub}}, "relu_3", {2, 2});
  b.output(relu);
  auto blob = compile_subgraph(b.graph());
  ASSERT_TRUE(blob.ok()) << ::ember::aot::format_error(blob.error());
  Loaded r;
  load(*blob, &r);
  ASSERT_EQ(r.program->num_inputs, 1);
  HeapTensor tx({2, 2}, {1, 2, 3, 4}), out({2, 2});
  ASSERT_EQ(run(r, {&tx, &out}), runtime::Error::Ok) << runtime::last_error_message();
  // x @ w = [1+2, 2; 3+4, 4] = [3 2; 7 4]; + x = [4 4; 10 8]; - 10 < 0 everywhere: relu -> 0.
  EXPECT_EQ(out.data, (std::vector<float>{0, 0, 0, 0}));
  HeapTensor tx2({2, 2}, {5, 1, 2, 6}), out2({2, 2});
  ASSERT_EQ(run(r, {&tx2, &out2}), runtime::Error::Ok);
  // x @ w = [5+1, 1; 2+6, 6] = [6 1; 8 6]; + x = [11 2; 10 12]; -10 = [1 -8; 0 2]; relu.
  EXPECT_EQ(out2.data, (std::vector<float>{1, 0, 0, 2}));
}

TEST(DemoCompiler, DisassemblyListsSlotsAndInstructions) {
  GraphBuilder b;
  auto x = b.input("x", {3});
  auto s = b.op("aten::sigmoid.default", {{"self", x}}, "sigmoid_0", {3});
  auto m = b.op("aten::mul.Tensor", {{"self", s}, {"other", x}}, "mul_1", {3});
  b.output(m);
  b.output(x);  // pass-through output: a copy
  auto blob = compile_subgraph(b.graph());
  ASSERT_TRUE(blob.ok()) << ::ember::aot::format_error(blob.error());
  EXPECT_EQ(disassemble(*blob),
            "demo bytecode v1, " + std::to_string(blob->size()) +
                " bytes, 4 slots, 3 instructions\n"
                "  s0: input f32[3]\n  s1: output f32[3]\n  s2: output f32[3]\n"
                "  s3: scratch f32[3]\n"
                "  0: sigmoid s3 <- s0\n  1: mul s1 <- s3, s0\n  2: copy s2 <- s0\n");
  EXPECT_EQ(blob->size(), 32u + 4 * 32 + 3 * 8);
  Loaded r;
  load(*blob, &r);
  HeapTensor tx({3}, {0, 0, 2}), o1({3}), o2({3});
  ASSERT_EQ(run(r, {&tx, &o1, &o2}), runtime::Error::Ok);
  EXPECT_EQ(o1.data[0], 0.f);
  EXPECT_EQ(o1.data[2], 2.f / (1.f + std::exp(-2.f)));
  EXPECT_EQ(o2.data, (std::vector<float>{0, 0, 2}));
}

TEST(DemoPartitioner, SupportsWithReasons) {
  GraphBuilder b;
  auto x = b.input("x", {2, 2});
  auto col = b.input("col", {2, 1});
  auto row = b.input("row", {1, 2});
  b.op("aten::add.Tensor", {{"self", x}, {"other", x}}, "add_0", {2, 2});      // 0 yes
  b.op("aten::add.Tensor", {{"self", col}, {"other", row}}, "add_1", {2, 2});  // 1 broadcast
  b.op("aten::add.Tensor", {{"self", x}, {"other", x}}, "add_2", {2, 2},       // 2 alpha
       {{"alpha", aot::Argument::integer(2), true}});
  b.op("aten::conv2d.default", {{"input", x}}, "conv2d_3", {2, 2});        // 3 unknown op
  b.op("aten::sub.Tensor", {{"self", x}, {"other", x}}, "sub_4", {2, 2});  // 4 filtered
  b.op("aten::mm.default", {{"self", x}, {"mat2", x}}, "mm_5", {2, 2});    // 5 yes
  aot::Graph& g = b.graph();
  g.value(g.nodes()[5].outputs[0].values[0]).tensor.dtype = aot::ScalarType::Long;  // now i64
  DemoPartitioner all;
  DemoPartitioner add_mm({"add", "mm"});
  EXPECT_TRUE(all.supports(g.nodes()[0], g).supported);
  EXPECT_EQ(all.supports(g.nodes()[1], g).reason, "broadcast other than a one-element operand");
  EXPECT_EQ(all.supports(g.nodes()[2], g).reason, "alpha other than 1");
  EXPECT_EQ(all.supports(g.nodes()[3], g).reason, "op not in the demo bytecode");
  EXPECT_TRUE(all.supports(g.nodes()[4], g).supported);
  EXPECT_EQ(add_mm.supports(g.nodes()[4], g).reason, "'sub' not in this partitioner's op list");
  EXPECT_EQ(all.supports(g.nodes()[5], g).reason, "output is i64, only f32");
  EXPECT_STREQ(all.backend_id(), "DemoBackend");
}

TEST(DemoCompiler, UnsupportedNodeNamesIt) {
  GraphBuilder b;
  auto x = b.input("x", {2});
  auto y = b.op("aten::add.Tensor", {{"self", x}, {"other", x}}, "add_0", {2},
                {{"alpha", aot::Argument::floating(0.5), true}});
  b.output(y);
  auto blob = compile_subgraph(b.graph());
  ASSERT_FALSE(blob.ok());
  EXPECT_EQ(blob.error(), aot::Error::NotSupported);
  EXPECT_NE(std::string(::ember::runtime::last_error_message()).find("aten::add.Tensor"), std::string::npos)
      << std::string(::ember::runtime::last_error_message());
  EXPECT_NE(std::string(::ember::runtime::last_error_message()).find("alpha"), std::string::npos);
}

}  // namespace
}  // namespace ember::backends::demo
