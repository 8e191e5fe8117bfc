// Every core ATen operator lowers and runs: torch 2.14's torch.Tag.core list
// (core_aten_ops.txt, written by refgen/schemas/generate.sh from PyTorch itself) held against
// Ember's decomposition table, its generated schema table and the portable kernel library.
// An operator passes when the AoT decomposes it, reads it as a scalar (sym_size, item, ...), or
// when its schema names an out variant (or it is an out overload itself, like atan2.out) and
// the portable library (or the optional FFT library, kernels/fft) registers a kernel under that
// name. The few that do none of these are in allowed() with the reason; an entry that has
// become covered fails too, so the list only shrinks.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "aot/ir/graph_rewrite.h"
#include "aot/ir/op_schema.h"
#include "aot/passes/decompositions.h"
#include "kernels/fft/register_kernels.h"
#include "kernels/portable/register_kernels.h"

namespace ember {
namespace {

// Core operators Ember neither decomposes nor runs, and why that is fine.
const std::map<std::string, std::string>& allowed() {
  static const auto* m = new std::map<std::string, std::string>{
      // Backward ops: torch.export of an inference program never emits them (they appear
      // only in joint forward-backward graphs, which Ember does not lower).
      {"aten::_adaptive_avg_pool2d_backward.default", "backward op"},
      {"aten::avg_pool2d_backward.default", "backward op"},
      {"aten::convolution_backward.default", "backward op"},
      {"aten::embedding_dense_backward.default", "backward op"},
      {"aten::max_pool2d_with_indices_backward.default", "backward op"},
      {"aten::native_group_norm_backward.default", "backward op"},
      {"aten::native_layer_norm_backward.default", "backward op"},
  };
  return *m;
}

std::vector<std::string> core_ops() {
  std::ifstream in("tests/ops/core_aten_ops.txt");
  std::vector<std::string> ops;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] != '#') ops.push_back(line);
  }
  return ops;
}

std::set<std::string> portable_kernel_names() {
  std::set<std::string> names;
  for (const runtime::Kernel& k : kernels::portable::portable_kernels()) names.insert(k.name);
  // The optional FFT library (KissFFT): what executor_runner and the AoT's run stage link.
  for (const runtime::Kernel& k : kernels::fft::fft_kernels()) names.insert(k.name);
  return names;
}

// "" when covered, else what is missing.
std::string gap(const std::string& op, const std::set<std::string>& kernels) {
  if (aot::training_ir_decompositions().count(op) != 0) return "";
  const aot::OpSchema* s = aot::builtin_op_schemas().find(op);
  aot::Node node;
  if (s != nullptr) node.op = s->op;
  if (s != nullptr && aot::is_scalar_read_op(node)) return "";
  if (s == nullptr && kernels.count(op) != 0) return "";  // an out overload (atan2.out)
  if (s == nullptr) return "no schema in the generated table";
  if (s->out_variant.empty()) return "no decomposition and no out variant";
  if (kernels.count(s->out_variant) == 0) return "no portable kernel " + s->out_variant;
  return "";
}

TEST(CoreAtenCoverageTest, ListIsTorchsCoreSet) {
  // torch 2.14 tags 189 overloads core; a truncated or empty file must not pass silently.
  EXPECT_EQ(core_ops().size(), 189u);
}

TEST(CoreAtenCoverageTest, EveryCoreOpIsDecomposedOrHasAPortableKernel) {
  ASSERT_EQ(aot::builtin_op_schema_status(), runtime::Error::Ok);
  const std::set<std::string> kernels = portable_kernel_names();
  std::string missing;
  size_t covered = 0;
  for (const std::string& op : core_ops()) {
    const std::string why = gap(op, kernels);
    const bool is_allowed = allowed().count(op) != 0;
    if (why.empty() && is_allowed) {
      missing += "\n  " + op + ": covered now; remove it from allowed()";
    } else if (!why.empty() && !is_allowed) {
      missing += "\n  " + op + ": " + why;
    } else if (why.empty()) {
      ++covered;
    }
  }
  EXPECT_TRUE(missing.empty()) << "core ATen operators Ember cannot lower and run:" << missing;
  EXPECT_GE(covered, core_ops().size() - allowed().size());
}

TEST(CoreAtenCoverageTest, AllowListNamesCoreOps) {
  const std::vector<std::string> ops = core_ops();
  const std::set<std::string> core(ops.begin(), ops.end());
  for (const auto& [op, why] : allowed()) EXPECT_EQ(core.count(op), 1u) << op;
}

}  // namespace
}  // namespace ember
