// Test-only builder of small edge-dialect graphs in C++ (the tutorial's examples without
// .pt2 files): float32 user inputs, constants (parameters), aten op nodes with one tensor
// output, and user outputs, with the signature filled in.
//
//   GraphBuilder b;
//   auto x = b.input("x", {2, 2});
//   auto y = b.op("mm", "default", {{"self", x}, {"mat2", x}}, {2, 2});
//   b.output(y);
//   aot::Graph g = b.take();
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "aot/ir/graph.h"

namespace ember::testing {

class GraphBuilder {
 public:
  aot::ValueId input(const std::string& name, std::vector<int64_t> sizes);
  // A parameter with float32 data (numel(sizes) values).
  aot::ValueId constant(const std::string& name, std::vector<int64_t> sizes,
                        const std::vector<float>& values);
  // aten::<op>.<overload> with named tensor inputs and one float32 output of `sizes`.
  aot::ValueId op(const std::string& op, const std::string& overload,
                  std::vector<std::pair<std::string, aot::ValueId>> inputs,
                  std::vector<int64_t> sizes);
  // Adds a non-tensor argument to the last node (e.g. alpha).
  void last_arg(const std::string& name, aot::Argument arg);
  void output(aot::ValueId v);

  aot::Graph& graph() { return g_; }
  aot::Graph take() { return std::move(g_); }

 private:
  aot::ValueId tensor(const std::string& name, std::vector<int64_t> sizes);
  aot::Graph g_;
  int counter_ = 0;
};

// Float values of a constant-free host tensor helper: bytes of `values` as float32.
std::vector<uint8_t> float_bytes(const std::vector<float>& values);
std::vector<float> to_floats(const std::vector<uint8_t>& bytes);

}  // namespace ember::testing
