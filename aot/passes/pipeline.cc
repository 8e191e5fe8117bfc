// PassPipeline implementation: run passes in order with verify/print/dump/time hooks.
#include "aot/passes/pipeline.h"

#include <chrono>
#include <cstdio>

#include "aot/ir/printer.h"
#include "aot/ir/verifier.h"

namespace ember::aot {

std::vector<std::string> PassPipeline::pass_names() const {
  std::vector<std::string> out;
  for (const auto& p : passes_) out.push_back(p->name());
  return out;
}

Error write_text_file(const std::string& path, const std::string& text) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return fail(Error::AccessFailed, "cannot open '" + path + "' for writing");
  size_t n = std::fwrite(text.data(), 1, text.size(), f);
  int rc = std::fclose(f);
  if (n != text.size() || rc != 0) {
    return fail(Error::AccessFailed, "short write to '" + path + "'");
  }
  return Error::Ok;
}

Error PassPipeline::run(Graph& graph, const PassInstrumentation& inst) const {
  int index = 0;
  for (const auto& pass : passes_) {
    std::string label = "pass '" + std::string(pass->name()) + "' (" + name_ + ")";
    auto start = std::chrono::steady_clock::now();
    Error st = pass->run(graph);
    auto end = std::chrono::steady_clock::now();
    if (st != Error::Ok) return annotate(st, label);
    if (inst.timings != nullptr) {
      inst.timings->push_back(
          {name_, pass->name(), std::chrono::duration<double, std::milli>(end - start).count()});
    }
    if (inst.verify_after_each) {
      Error v = verify_graph(graph);
      if (v != Error::Ok) return annotate(v, "verifier after " + label);
    }
    if (inst.print_after_each && inst.print) inst.print(label, print_graph(graph));
    if (!inst.dump_dir.empty()) {
      std::string prefix = (index < 10 ? "0" : "") + std::to_string(index) + "_";
      std::string path = inst.dump_dir + "/" + name_ + "_" + prefix + pass->name() + ".txt";
      EMBER_TRY(write_text_file(path, print_graph(graph)));
    }
    ++index;
  }
  return Error::Ok;
}

}  // namespace ember::aot
