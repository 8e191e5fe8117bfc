// parse_method_flag and lower_methods (see multi_method.h).
#include "aot/recipe/multi_method.h"

#include <algorithm>

#include "aot/emit/guard_method.h"
#include "aot/emit/program_merge.h"
#include "aot/recipe/export_session.h"

namespace ember::aot {

Result<MethodSource> parse_method_flag(const std::string& flag) {
  const size_t eq = flag.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == flag.size()) {
    return invalid_argument("--method '" + flag + "': expected NAME=FILE.pt2");
  }
  return MethodSource{flag.substr(0, eq), flag.substr(eq + 1)};
}

Result<EmitProgram> lower_methods(const RecipeRegistry& recipes, const std::string& recipe,
                                    const std::vector<MethodSource>& methods,
                                    const RecipeOptions& options, std::vector<EmitProgram> extra) {
  std::vector<EmitProgram> programs;
  for (const MethodSource& m : methods) {
    const std::string where = "method '" + m.name + "' (" + m.pt2_path + ")";
    auto session = ExportSession::create(recipes, recipe, m.pt2_path, options);
    if (!session.ok()) return annotate(session.error(), where);
    Error st = session->run();
    if (st != Error::Ok) return annotate(st, where);
    const StageArtifact& art = session->last_artifact();
    if (art.program == nullptr || art.program->methods.size() != 1) {
      return fail(Error::Internal, where + ": the session emitted no single method");
    }
    EmitProgram p = *art.program;
    p.methods[0].name = m.name;
    // The method keeps its input guards (dim minimums, equalities, derived sizes), as a
    // single-method lowering writes them (EmitStage): a constant method per method.
    auto guards = derive_method_guards(*art.graph, p.methods[0]);
    if (!guards.ok()) return annotate(guards.error(), where);
    if (!guards->empty()) {
      auto g = guard_method(m.name, *guards);
      if (!g.ok()) return annotate(g.error(), where);
      p.methods.push_back(std::move(g.get()));
    }
    programs.push_back(std::move(p));
  }
  for (EmitProgram& p : extra) programs.push_back(std::move(p));
  EMBER_ASSIGN_OR_RETURN(EmitProgram merged, merge_programs(std::move(programs)));
  // Guard methods after the user's (sorted) methods: method 0 stays a method users run.
  std::stable_partition(merged.methods.begin(), merged.methods.end(), [](const EmitMethod& m) {
    return !runtime::is_guard_method_name(m.name.c_str());
  });
  return merged;
}

}  // namespace ember::aot
