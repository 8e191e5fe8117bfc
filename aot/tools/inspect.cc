// inspect: prints what a torch.export .pt2 file contains.
//
//   bazel run //aot/tools:inspect -- model.pt2 [--json] [--graph=false]
//
// Shows user inputs/outputs with dtypes and shapes (symbolic dims by name, with their
// ranges), an op histogram, parameter/buffer/constant sizes, buffer mutations and the
// graph (one node per line with the user's source line). Relative paths are resolved
// against $BUILD_WORKING_DIRECTORY (the directory `bazel run` was started in). Exit
// status 1 with the error's name and message when the file cannot be read.
#include <gflags/gflags.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "aot/frontend/pt2_reader.h"
#include "aot/tools/pt2_summary.h"

DEFINE_bool(json, false, "print the summary as JSON");
DEFINE_bool(graph, true, "include the graph, one node per line");
DEFINE_bool(weights, true, "load and check the weights (slower for large models)");

int main(int argc, char** argv) {
  gflags::SetUsageMessage("inspect FILE.pt2 [--json] [--graph=false] [--weights=false]");
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s FILE.pt2 [--json] [--graph=false]\n", argv[0]);
    return 2;
  }
  std::string path = argv[1];
  const char* cwd = std::getenv("BUILD_WORKING_DIRECTORY");
  if (!path.empty() && path[0] != '/' && cwd != nullptr) path = std::string(cwd) + "/" + path;
  ember::aot::Pt2ReadOptions options;
  options.load_weights = FLAGS_weights;
  auto graph = ember::aot::read_pt2_file(path, options);
  if (!graph.is_ok()) {
    std::fprintf(stderr, "error: %s\n", graph.status().to_string().c_str());
    return 1;
  }
  std::string out = FLAGS_json ? ember::aot::summarize_pt2_json(graph.value(), FLAGS_graph)
                               : ember::aot::summarize_pt2_text(graph.value(), FLAGS_graph);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}
