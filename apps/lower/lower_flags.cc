// take_repeated_flag, add_user_passes, multi_method_pte, write_multi_method_program and
// read_calibration_samples (see lower_flags.h).
#include "apps/lower/lower_flags.h"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "aot/recipe/multi_method.h"
#include "aot/recipe/run_method.h"
#include "aot/emit/pte_writer.h"
#include "aot/frontend/pt2_reader.h"
#include "apps/lower/output_file.h"

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

Result<std::vector<uint8_t>> multi_method_pte(const RecipeRegistry& recipes, const std::string& recipe,
                                              const std::vector<std::string>& method_flags,
                                              const RecipeOptions& options) {
  std::vector<MethodSource> methods;
  for (const std::string& flag : method_flags) {
    EMBER_ASSIGN_OR_RETURN(MethodSource m, parse_method_flag(flag));
    methods.push_back(std::move(m));
  }
  EMBER_ASSIGN_OR_RETURN(EmitProgram program, lower_methods(recipes, recipe, methods, options));
  std::vector<uint8_t> bytes;
  EMBER_TRY(write_pte(program, &bytes));
  EMBER_TRY(check_pte_loads(bytes));
  return bytes;
}

Result<size_t> write_multi_method_program(const RecipeRegistry& recipes,
                                            const std::string& recipe,
                                            const std::vector<std::string>& method_flags,
                                            const RecipeOptions& options,
                                            const std::string& out_path) {
  EMBER_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes,
                         multi_method_pte(recipes, recipe, method_flags, options));
  EMBER_TRY(write_output_file(out_path, bytes));
  return bytes.size();
}

namespace {

Error add_sample(const std::string& spec, const std::string& where,
                 const std::function<std::string(const std::string&)>& resolve,
                 QuantizeOptions* options) {
  std::vector<HostTensor> sample;
  std::vector<std::string> names;
  std::stringstream ss(spec);
  std::string file;
  while (std::getline(ss, file, ',')) {
    const size_t b = file.find_first_not_of(" \t"), e = file.find_last_not_of(" \t\r");
    file = b == std::string::npos ? "" : file.substr(b, e - b + 1);
    if (file.empty()) {
      return invalid_argument(where + ": empty file name in calibration sample '" + spec + "'");
    }
    Result<std::vector<uint8_t>> bytes = read_file_bytes(resolve(file));
    if (!bytes.ok()) return fail(bytes.error(), where + ": calibration file '" + file + "'");
    HostTensor t;
    t.dtype = ScalarType::Undefined;  // raw: QuantizeStage binds it to the input
    t.bytes = std::move(bytes.get());
    sample.push_back(std::move(t));
    names.push_back(file);
  }
  if (sample.empty()) return invalid_argument(where + ": empty calibration sample");
  options->samples.push_back(std::move(sample));
  options->sample_names.push_back(std::move(names));
  return Error::Ok;
}

}  // namespace

Error read_calibration_samples(const std::vector<std::string>& calibrate_flags,
                               const std::string& list_file,
                               const std::function<std::string(const std::string&)>& resolve,
                               QuantizeOptions* options) {
  for (const std::string& flag : calibrate_flags) {
    EMBER_TRY(add_sample(flag, "--calibrate", resolve, options));
  }
  if (list_file.empty()) return Error::Ok;
  Result<std::vector<uint8_t>> bytes = read_file_bytes(resolve(list_file));
  if (!bytes.ok()) return fail(bytes.error(), "--calibration-list '" + list_file + "'");
  std::stringstream lines(std::string(bytes->begin(), bytes->end()));
  std::string line;
  int number = 0;
  const size_t before = options->samples.size();
  while (std::getline(lines, line)) {
    ++number;
    const size_t hash = line.find('#');
    if (hash != std::string::npos) line = line.substr(0, hash);
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    EMBER_TRY(add_sample(line, list_file + ":" + std::to_string(number), resolve, options));
  }
  if (options->samples.size() == before) {
    return invalid_argument("--calibration-list '" + list_file + "' lists no sample (0 samples)");
  }
  return Error::Ok;
}

}  // namespace ember::aot
