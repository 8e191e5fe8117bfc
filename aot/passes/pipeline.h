// PassPipeline: a straight list of passes with instrumentation.
//
// run() applies the passes in order. After each pass it optionally verifies the graph
// (verify_graph), prints it (print hook), writes it to <dump_dir>/<NN>_<stage>_<pass>.txt
// and reports the pass's wall time. The first failing pass stops the pipeline; its Error
// is annotated with the pass name ("pass 'out_variant': ...").
//
//   PassPipeline p("to_edge");
//   p.add(std::make_unique<FunctionalizePass>());
//   p.add(std::make_unique<DecomposeTrainingOpsPass>());
//   EMBER_TRY(p.run(graph, instrumentation));
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "aot/ir/graph.h"
#include "aot/passes/pass.h"

namespace ember::aot {

struct PassTiming {
  std::string stage;  // pipeline name
  std::string pass;   // pass name
  double millis = 0;
};

struct PassInstrumentation {
  bool verify_after_each = true;       // run verify_graph after every pass
  std::string dump_dir;                // "" = no per-pass dumps
  bool print_after_each = false;       // call `print` with the printed graph
  std::function<void(const std::string& title, const std::string& text)> print;
  std::vector<PassTiming>* timings = nullptr;  // appended to when non-null
};

class PassPipeline {
 public:
  explicit PassPipeline(std::string name) : name_(std::move(name)) {}
  PassPipeline& add(std::unique_ptr<Pass> pass) {
    passes_.push_back(std::move(pass));
    return *this;
  }
  const std::string& name() const { return name_; }
  size_t size() const { return passes_.size(); }
  // Names in order.
  std::vector<std::string> pass_names() const;

  Error run(Graph& graph, const PassInstrumentation& inst = {}) const;

 private:
  std::string name_;
  std::vector<std::unique_ptr<Pass>> passes_;
};

// Writes `text` to `path` (creating no directories). AccessFailed on error.
Error write_text_file(const std::string& path, const std::string& text);

}  // namespace ember::aot
