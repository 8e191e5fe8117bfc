// take_repeated_flag, add_user_passes, write_multi_method_program (see lower_flags.h).
#include "aot/tools/lower_flags.h"

#include <cstdio>

#include "aot/recipe/multi_method.h"
#include "aot/recipe/run_method.h"
#include "aot/emit/pte_writer.h"

namespace ember::aot {

std::vector<std::string> take_repeated_flag(int* argc, char** argv, const std::string& name) {
  std::vector<std::string> values;
  const std::string plain = "--" + name, with_eq = "--" + name + "=";
  int out = 1;
  for (int i = 1; i < *argc; ++i) {
    const std::string arg = argv[i];
    if (arg == plain && i + 1 < *argc) {
      values.push_back(argv[++i]);
    } else if (arg.rfind(with_eq, 0) == 0) {
      values.push_back(arg.substr(with_eq.size()));
    } else {
      argv[out++] = argv[i];
    }
  }
  *argc = out;
  return values;
}

Error add_user_passes(const PassRegistry& registry, const std::vector<std::string>& names,
                       RecipeOptions* options) {
  for (const std::string& name : names) {
    EMBER_ASSIGN_OR_RETURN(std::shared_ptr<const Pass> pass, registry.create(name));
    options->user_passes.push_back(std::move(pass));
  }
  return Error::Ok;
}

Result<size_t> write_multi_method_program(const RecipeRegistry& recipes,
                                            const std::string& recipe,
                                            const std::vector<std::string>& method_flags,
                                            const RecipeOptions& options,
                                            const std::string& out_path) {
  std::vector<MethodSource> methods;
  for (const std::string& flag : method_flags) {
    EMBER_ASSIGN_OR_RETURN(MethodSource m, parse_method_flag(flag));
    methods.push_back(std::move(m));
  }
  EMBER_ASSIGN_OR_RETURN(EmitProgram program, lower_methods(recipes, recipe, methods, options));
  std::vector<uint8_t> bytes;
  EMBER_TRY(write_pte(program, &bytes));
  EMBER_TRY(check_pte_loads(bytes));
  FILE* f = std::fopen(out_path.c_str(), "wb");
  if (f == nullptr || std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size() ||
      std::fclose(f) != 0) {
    return fail(Error::AccessFailed, "cannot write '" + out_path + "'");
  }
  return bytes.size();
}

}  // namespace ember::aot
