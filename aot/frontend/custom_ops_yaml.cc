// Custom operator YAML files (see custom_ops_yaml.h).
#include "aot/frontend/custom_ops_yaml.h"

#include <yaml-cpp/yaml.h>

#include <fstream>
#include <sstream>

namespace ember::aot {
namespace {

constexpr const char* kIgnoredKeys[] = {"kernels", "type_alias", "dim_order_alias", "variants"};

std::string place(const std::string& name, const YAML::Mark& mark) {
  return name + ":" + std::to_string(mark.line + 1);
}

Error at(const std::string& name, const YAML::Mark& mark, const std::string& message) {
  return invalid_argument(place(name, mark) + ": " + message);
}

bool ignored(const std::string& key) {
  for (const char* k : kIgnoredKeys) {
    if (key == k) return true;
  }
  return false;
}

Result<CustomOpDeclaration> entry(const YAML::Node e, const std::string& name) {
  if (!e.IsMap()) {
    return at(name, e.Mark(), "each entry is a map with a 'func:' key (- func: ns::op.out(...) -> ...)");
  }
  for (const auto& kv : e) {
    if (!kv.first.IsScalar()) return at(name, kv.first.Mark(), "keys are plain words");
    const std::string key = kv.first.Scalar();
    if (key != "func" && !ignored(key)) {
      return at(name, kv.first.Mark(),
                "unknown key '" + key + "' (a custom op entry has func and optionally kernels, "
                "type_alias, dim_order_alias, variants)");
    }
  }
  const YAML::Node func = e["func"];
  if (!func.IsDefined()) return at(name, e.Mark(), "entry has no 'func:' key");
  if (!func.IsScalar() || func.Scalar().empty()) {
    return at(name, func.Mark(), "'func:' must be a schema string: ns::op.out(...) -> ...");
  }
  return CustomOpDeclaration{func.Scalar(), place(name, func.Mark())};
}

}  // namespace

Result<std::vector<CustomOpDeclaration>> parse_custom_ops_yaml(const std::string& text,
                                                               const std::string& name) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    return at(name, e.mark, "not valid YAML: " + e.msg);
  }
  std::vector<CustomOpDeclaration> out;
  if (root.IsNull()) return out;  // an empty file declares nothing
  if (!root.IsSequence()) {
    return at(name, root.Mark(), "a custom ops file is a YAML list of entries (- func: ...)");
  }
  for (const YAML::Node& e : root) {
    EMBER_ASSIGN_OR_RETURN(CustomOpDeclaration d, entry(e, name));
    out.push_back(std::move(d));
  }
  return out;
}

Result<std::shared_ptr<const OpSchemaRegistry>> read_custom_ops_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(Error::AccessFailed, "--custom_ops: cannot read '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  EMBER_ASSIGN_OR_RETURN(std::vector<CustomOpDeclaration> d, parse_custom_ops_yaml(text.str(), path));
  return custom_op_schemas(d);
}

}  // namespace ember::aot
