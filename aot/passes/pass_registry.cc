// PassRegistry (see pass_registry.h).
#include "aot/passes/pass_registry.h"

#include "aot/passes/replace_relu_with_sigmoid_pass.h"

namespace ember::aot {

Error PassRegistry::register_pass(const std::string& name, PassFactory factory) {
  if (name.empty() || !factory) return invalid_argument("a pass needs a name and a factory");
  for (const auto& e : entries_) {
    if (e.first == name) return invalid_argument("pass '" + name + "' is already registered");
  }
  entries_.emplace_back(name, std::move(factory));
  return Error::Ok;
}

Result<std::shared_ptr<const Pass>> PassRegistry::create(const std::string& name) const {
  for (const auto& e : entries_) {
    if (e.first == name) return e.second();
  }
  std::string known;
  for (const auto& e : entries_) known += (known.empty() ? "" : ", ") + e.first;
  return not_found("unknown pass '" + name + "' (registered: " + (known.empty() ? "none" : known) +
                   ")");
}

std::vector<std::string> PassRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& e : entries_) out.push_back(e.first);
  return out;
}

Error register_example_passes(PassRegistry* registry) {
  return registry->register_pass("replace_relu_with_sigmoid", [] {
    return std::make_shared<const ReplaceReluWithSigmoidPass>();
  });
}

}  // namespace ember::aot
