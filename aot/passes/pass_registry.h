// PassRegistry: user passes by name, so tools can apply them (lower --pass NAME). A
// registry is an explicit object; a program registers the passes it links (for example
// register_example_passes) and asks create(name) for a fresh instance. Duplicate or empty
// names are InvalidArgument; an unknown name is NotFound listing the known ones.
//
//   PassRegistry passes;
//   register_example_passes(&passes);
//   RecipeOptions options;
//   for (const std::string& name : FLAGS_pass) {
//     EMBER_ASSIGN_OR_RETURN(auto pass, passes.create(name));
//     options.user_passes.push_back(std::move(pass));      // run by the transform stage
//   }
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "aot/passes/pass.h"

namespace ember::aot {

using PassFactory = std::function<std::shared_ptr<const Pass>()>;

class PassRegistry {
 public:
  Error register_pass(const std::string& name, PassFactory factory);
  Result<std::shared_ptr<const Pass>> create(const std::string& name) const;
  std::vector<std::string> names() const;

 private:
  std::vector<std::pair<std::string, PassFactory>> entries_;
};

// Registers the documented example passes: "replace_relu_with_sigmoid".
Error register_example_passes(PassRegistry* registry);

}  // namespace ember::aot
