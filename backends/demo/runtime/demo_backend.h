// DemoBackend: the runtime half of Ember's demo delegate, registered as "DemoBackend".
// It runs the compact bytecode that backends/demo/aot compiles from a subgraph of a few
// float32 ops (FORMAT.md): init() verifies the whole blob and decodes it into the method
// allocator (tables, a copy of the constants, scratch slots), then frees the blob;
// execute() binds the delegate's tensors and interprets, allocating nothing. It is the
// worked example of CONTRIBUTING.md's "How to add a backend". Registration is explicit:
//
//   ember::backends::demo::register_backend(ember::runtime::default_backend_registry());
//
// Compile specs: "max_numel" (little-endian unsigned integer, 1..8 bytes) rejects at init
// a blob with any slot of more elements (InvalidArgument). Other keys are NotSupported.
#pragma once

#include "runtime/backend/backend_interface.h"
#include "runtime/backend/backend_registry.h"

namespace ember::backends::demo {

// The id the AoT half writes into BackendDelegate.id.
constexpr const char* kBackendName = "DemoBackend";
constexpr const char* kMaxNumelSpec = "max_numel";

class DemoBackend final : public runtime::BackendInterface {
 public:
  bool is_available() const override { return true; }

  // Verifies and decodes the blob (bytecode_program.h), frees `processed`.
  runtime::Result<runtime::DelegateHandle*> init(
      runtime::BackendInitContext& context, runtime::FreeableBuffer* processed,
      runtime::Span<const runtime::CompileSpec> compile_specs) const override;

  runtime::Error execute(runtime::BackendExecutionContext& context,
                         runtime::DelegateHandle* handle,
                         runtime::Span<runtime::EValue*> args) const override;

  // Nothing to do: all memory came from the method allocator.
  void destroy(runtime::DelegateHandle*) const override {}
};

// The process-wide DemoBackend instance.
DemoBackend& backend_instance();

// Registers backend_instance() as "DemoBackend" (errors as BackendRegistry::register_backend).
runtime::Error register_backend(runtime::BackendRegistry& registry);

}  // namespace ember::backends::demo
