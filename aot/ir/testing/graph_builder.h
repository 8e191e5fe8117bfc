// GraphBuilder (tests only): builds small edge-dialect graphs by hand, with the signature
// filled in, for pass, planner, emitter, partitioner and backend-compiler tests.
//
//   GraphBuilder b;
//   ValueId w = b.parameter("w", {4, 3}, std::vector<float>(12, 1.f));
//   ValueId x = b.input("x", {2, 3});
//   ValueId y = b.op("aten::linear.default", {{"input", x}, {"weight", w}}, "linear", {2, 4});
//   ValueId z = b.op("aten::add.Tensor", {{"self", y}, {"other", y}}, "add", {2, 4},
//                    {{"alpha", Argument::integer(2), true}});
//   b.output(z);
//   Graph g = b.take();
//   EXPECT_EQ(print_body(g), "...");   // one line per node, no source locations
//
// Every op node gets a made-up stack trace ("model.py", line 10 + its index) so that
// node.describe() in error messages looks like it does for exported graphs.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "aot/ir/graph.h"

namespace ember::aot::testing {

class GraphBuilder {
 public:
  // A user input, after every input added so far.
  ValueId input(const std::string& name, std::vector<int64_t> sizes,
                ScalarType dtype = ScalarType::Float);
  // A lifted float32 constant (numel(sizes) values in `data`) of `kind` (Parameter, Buffer,
  // TensorConstant). Placed after the lifted constants added so far and before the first
  // user input, as torch.export orders its placeholders.
  ValueId parameter(const std::string& name, std::vector<int64_t> sizes,
                    const std::vector<float>& data, InputKind kind = InputKind::Parameter);
  // A node calling `qualified` ("aten::add.Tensor") with the named tensor inputs, then the
  // `extra` (non-tensor) arguments, and one tensor output named `out_name` shaped `sizes`.
  ValueId op(const std::string& qualified, std::vector<std::pair<std::string, ValueId>> tensors,
             const std::string& out_name, std::vector<int64_t> sizes,
             std::vector<NamedArgument> extra = {}, ScalarType dtype = ScalarType::Float);
  // A graph output (`target`: the mutated buffer or input for mutation kinds).
  void output(ValueId v, OutputKind kind = OutputKind::UserOutput, const std::string& target = "");

  Graph& graph() { return g_; }
  Graph take() { return std::move(g_); }

 private:
  // A contiguous tensor value called exactly `name` (duplicate names fail).
  ValueId add_tensor(const std::string& name, const std::vector<int64_t>& sizes, ScalarType dtype);
  // A tensor placeholder inserted at graph input `position`, with its InputSpec.
  ValueId add_placeholder(const std::string& name, const std::vector<int64_t>& sizes,
                          ScalarType dtype, InputKind kind, size_t position);
  Graph g_;
};

// The graph's nodes, one print_node line each, without source locations.
std::string print_body(const Graph& g);

// Little-endian float32 bytes of `values`, and back.
std::vector<uint8_t> float_bytes(const std::vector<float>& values);
std::vector<float> to_floats(const std::vector<uint8_t>& bytes);

}  // namespace ember::aot::testing
