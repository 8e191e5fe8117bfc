// The XNNPACK delegates of one method share one workspace (method_workspace.h), and a reshape
// into an output is written by its fully-connected producer (shape_plan.cc).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "backends/xnnpack/runtime/test_delegate.h"
#include "backends/xnnpack/runtime/test_graphs.h"
#include "backends/xnnpack/runtime/xnnpack_executor.h"
#include "runtime/core/diagnostics.h"

namespace ember::backends::xnnpack::testing {
namespace {

using runtime::Error;

GraphBuilder scale_then_add_graph(float k) {
  GraphBuilder g;
  const uint32_t x = g.tensor({1024}, kIn, 0);
  const uint32_t a = g.tensor({1024});
  g.node_2x1(XNodeUnion::XNNMultiply, x, g.constant({1}, {k}), a);
  g.node_2x1(XNodeUnion::XNNAdd, a, g.constant({1}, {1.f}), g.tensor({1024}, kOut, 1));
  return g;
}

Error run_n(Delegate& d, HeapTensor& in, HeapTensor& out, int n) {
  const int32_t size = n;
  if (Error e = in.tensor.resize(runtime::Span<const int32_t>(&size, 1)); e != Error::Ok) return e;
  for (int i = 0; i < n; ++i) in.data[i] = float(i + 1);
  return d.run({&in, &out});
}

// x [n <= 64, 3] -> a = x W^T + b (internal) -> out = a + 1: a packed weight and a workspace value.
GraphBuilder linear_then_add_graph() {
  GraphBuilder g;
  const uint32_t x = g.tensor({64, 3}, kIn, 0);
  const uint32_t a = g.tensor({64, 2});
  g.fully_connected(x, g.constant({2, 3}, {1, 2, 3, 0, -1, 1}), g.constant({2}, {0.5f, -2.f}), a);
  g.node_2x1(XNodeUnion::XNNAdd, a, g.constant({1}, {1.f}), g.tensor({64, 2}, kOut, 1));
  return g;
}

TEST(XnnpackBackend, GrowingTheSharedWorkspaceSetsUpPackedOperatorsAgain) {
  // A new plan that grows the method's workspace makes XNNPACK set up the operators of the
  // plans already run again, among them fully-connected operators with packed weights, which
  // XNNPACK refuses while their weights cache is open: the new plan must be reshaped with the
  // cache closed, whether the earlier plan is the same delegate's or another's.
  Delegate a(linear_then_add_graph());
  ASSERT_EQ(a.init_error(), Error::Ok) << runtime::last_error_message();
  Delegate b(scale_then_add_graph(3.f), nullptr, a.allocator());
  ASSERT_EQ(b.init_error(), Error::Ok) << runtime::last_error_message();
  HeapTensor a_in({64, 3}), a_out({64, 2}), b_in({1024}), b_out({1024});
  for (int round = 0; round < 2; ++round) {
    for (int rows : {1, 8, 64}) {  // each plan's workspace larger than the one before
      SCOPED_TRACE(rows);
      const int32_t in_sizes[] = {rows, 3};
      ASSERT_EQ(a_in.tensor.resize(runtime::Span<const int32_t>(in_sizes, 2)), Error::Ok);
      for (int i = 0; i < rows * 3; ++i) a_in.data[i] = float(i % 7);
      ASSERT_EQ(a.run({&a_in, &a_out}), Error::Ok) << runtime::last_error_message();
      for (int i = 0; i < rows; ++i) {
        const float* r = a_in.data.data() + i * 3;
        ASSERT_FLOAT_EQ(a_out.f()[i * 2], r[0] + 2 * r[1] + 3 * r[2] + 0.5f + 1) << i;
        ASSERT_FLOAT_EQ(a_out.f()[i * 2 + 1], -r[1] + r[2] - 2.f + 1) << i;
      }
    }
    const int n = round == 0 ? 600 : 1000;  // another delegate's larger plan
    ASSERT_EQ(run_n(b, b_in, b_out, n), Error::Ok) << runtime::last_error_message();
    for (int i = 0; i < n; ++i) ASSERT_EQ(b_out.f()[i], 3.f * (i + 1) + 1) << i;
  }
}

TEST(XnnpackBackend, DelegatesOfOneMethodShareOneWorkspace) {
  // Two delegates of one method (one runtime allocator) keep their runtimes' internal values in
  // one workspace. The second one's larger plan grows it, which moves the first one's internal
  // value; the first one's cached plan, run again with the same external pointers (no setup on
  // Ember's side), must still compute from the moved memory.
  const size_t before = MethodWorkspace::num_live();
  {
    Delegate a(scale_then_add_graph(2.f));
    ASSERT_EQ(a.init_error(), Error::Ok) << runtime::last_error_message();
    EXPECT_EQ(MethodWorkspace::num_live(), before + 1);
    Delegate b(scale_then_add_graph(3.f), nullptr, a.allocator());
    ASSERT_EQ(b.init_error(), Error::Ok) << runtime::last_error_message();
    EXPECT_EQ(MethodWorkspace::num_live(), before + 1);  // the same method: the same workspace
    Delegate other(scale_then_add_graph(5.f));           // another method: its own
    ASSERT_EQ(other.init_error(), Error::Ok) << runtime::last_error_message();
    EXPECT_EQ(MethodWorkspace::num_live(), before + 2);

    HeapTensor a_in({1024}), a_out({1024}), b_in({1024}), b_out({1024});
    ASSERT_EQ(run_n(a, a_in, a_out, 4), Error::Ok) << runtime::last_error_message();
    for (int i = 0; i < 4; ++i) EXPECT_EQ(a_out.f()[i], 2.f * (i + 1) + 1);
    ASSERT_EQ(run_n(b, b_in, b_out, 1000), Error::Ok) << runtime::last_error_message();
    for (int i = 0; i < 1000; ++i) ASSERT_EQ(b_out.f()[i], 3.f * (i + 1) + 1) << i;
    std::fill(a_out.data.begin(), a_out.data.end(), -1.f);
    ASSERT_EQ(run_n(a, a_in, a_out, 4), Error::Ok) << runtime::last_error_message();
    for (int i = 0; i < 4; ++i) EXPECT_EQ(a_out.f()[i], 2.f * (i + 1) + 1);
    ASSERT_EQ(run_n(b, b_in, b_out, 7), Error::Ok) << runtime::last_error_message();
    for (int i = 0; i < 7; ++i) EXPECT_EQ(b_out.f()[i], 3.f * (i + 1) + 1);
  }
  EXPECT_EQ(MethodWorkspace::num_live(), before);  // released with the last delegate
}

// y = x W^T + b, x [rows <= 4, 3] -> reshape to [1, rows, 2] (a decoder's logits head).
GraphBuilder linear_then_reshape_graph(bool also_read_y) {
  GraphBuilder g;
  const uint32_t x = g.tensor({4, 3}, kIn, 0);
  const uint32_t w = g.constant({2, 3}, {1, 2, 3, 0, -1, 1});
  const uint32_t b = g.constant({2}, {0.5f, -2.f});
  const uint32_t y = g.tensor({4, 2});
  g.fully_connected(x, w, b, y);
  g.reshape({1, 0, 2}, y, g.tensor({1, 4, 2}, kOut, 1));
  if (also_read_y) g.node_2x1(XNodeUnion::XNNAdd, y, y, g.tensor({4, 2}, kOut, 2));
  return g;
}

TEST(XnnpackBackend, ReshapeIntoAnOutputIsElided) {
  // The reshape's input is read by nothing else: the fully-connected node writes the output
  // directly (no workspace for y, no copy). With a second reader, y stays and the reshape runs.
  for (bool also_read_y : {false, true}) {
    SCOPED_TRACE(also_read_y);
    Delegate d(linear_then_reshape_graph(also_read_y));
    ASSERT_EQ(d.init_error(), Error::Ok) << runtime::last_error_message();
    for (int rows : {3, 1, 4}) {
      SCOPED_TRACE(rows);
      HeapTensor in({4, 3}), out({1, 4, 2}), twice({4, 2});
      const int32_t in_sizes[] = {rows, 3};
      ASSERT_EQ(in.tensor.resize(runtime::Span<const int32_t>(in_sizes, 2)), Error::Ok);
      for (int i = 0; i < rows * 3; ++i) in.data[i] = float(i + 1);
      std::vector<HeapTensor*> args = {&in, &out};
      if (also_read_y) args.push_back(&twice);
      ASSERT_EQ(d.run(args), Error::Ok) << runtime::last_error_message();
      ASSERT_EQ(out.tensor.dim(), 3);
      EXPECT_EQ(out.tensor.size(1), rows);
      for (int i = 0; i < rows; ++i) {
        const float* r = in.data.data() + i * 3;
        const float y0 = r[0] + 2 * r[1] + 3 * r[2] + 0.5f, y1 = -r[1] + r[2] - 2.f;
        EXPECT_FLOAT_EQ(out.f()[i * 2], y0);
        EXPECT_FLOAT_EQ(out.f()[i * 2 + 1], y1);
        if (also_read_y) {
          EXPECT_FLOAT_EQ(twice.f()[i * 2], 2 * y0);
        }
      }
      ASSERT_NE(d.executor()->latest_plan(), nullptr);
      EXPECT_EQ(d.executor()->latest_plan()->num_elided_reshapes(), also_read_y ? 0u : 1u);
    }
  }
}

TEST(XnnpackBackend, ReshapeOfANonLinearProducerIntoAnOutputStays) {
  // Only a fully-connected producer writes a reshaped output directly: other operators check
  // the output's rank against their own (MaxViT's partitions failed xnn_reshape_runtime with
  // invalid_parameter when an element-wise producer was handed the 3-D external output).
  GraphBuilder g;
  const uint32_t x = g.tensor({4, 3}, kIn, 0);
  const uint32_t y = g.tensor({4, 3});
  g.node_2x1(XNodeUnion::XNNAdd, x, x, y);
  g.reshape({1, 4, 3}, y, g.tensor({1, 4, 3}, kOut, 1));
  Delegate d(g);
  ASSERT_EQ(d.init_error(), Error::Ok) << runtime::last_error_message();
  HeapTensor in({4, 3}), out({1, 4, 3});
  for (int i = 0; i < 12; ++i) in.data[i] = float(i) - 5.f;
  std::vector<HeapTensor*> args = {&in, &out};
  ASSERT_EQ(d.run(args), Error::Ok) << runtime::last_error_message();
  for (int i = 0; i < 12; ++i) EXPECT_FLOAT_EQ(out.f()[i], 2.f * (float(i) - 5.f));
  ASSERT_NE(d.executor()->latest_plan(), nullptr);
  EXPECT_EQ(d.executor()->latest_plan()->num_elided_reshapes(), 0u);
}

TEST(XnnpackBackend, LoneReshapeIsACopyWithoutPaddedInput) {
  // A delegate that is one reshape from input to output (upstream's partitioner writes these,
  // e.g. after a decoder's head) copies the bytes; its input needs no padded copy.
  GraphBuilder g;
  const uint32_t x = g.tensor({1, 4, 3}, kIn, 0);
  g.reshape({0, 3}, x, g.tensor({4, 3}, kOut, 1));
  Delegate d(g);
  ASSERT_EQ(d.init_error(), Error::Ok) << runtime::last_error_message();
  for (int rows : {4, 2}) {
    SCOPED_TRACE(rows);
    HeapTensor in({1, 4, 3}), out({4, 3});
    const int32_t in_sizes[] = {1, rows, 3};
    ASSERT_EQ(in.tensor.resize(runtime::Span<const int32_t>(in_sizes, 3)), Error::Ok);
    for (int i = 0; i < rows * 3; ++i) in.data[i] = float(i) - 2.5f;
    ASSERT_EQ(d.run({&in, &out}), Error::Ok) << runtime::last_error_message();
    ASSERT_EQ(out.tensor.dim(), 2);
    EXPECT_EQ(out.tensor.size(0), rows);
    for (int i = 0; i < rows * 3; ++i) EXPECT_EQ(out.f()[i], float(i) - 2.5f) << i;
    const ShapePlan* plan = d.executor()->latest_plan();
    ASSERT_NE(plan, nullptr);
    EXPECT_TRUE(plan->copy_only());
    EXPECT_EQ(plan->scratch_bytes(), 0u);
  }
}

}  // namespace
}  // namespace ember::backends::xnnpack::testing
