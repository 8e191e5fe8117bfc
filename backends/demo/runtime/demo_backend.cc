// DemoBackend (see demo_backend.h): compile-spec parsing and the BackendInterface glue
// around load_program() and run_program().
#include "backends/demo/runtime/demo_backend.h"

#include <cstring>

#include "backends/demo/runtime/bytecode_program.h"
#include "backends/demo/runtime/interpreter.h"
#include "runtime/core/diagnostics.h"

namespace ember::backends::demo {

using runtime::Error;
using runtime::fail;

namespace {

Error parse_specs(runtime::Span<const runtime::CompileSpec> specs, LoadOptions* options) {
  for (size_t i = 0; i < specs.size(); ++i) {
    const runtime::CompileSpec& spec = specs[i];
    const char* key = spec.key == nullptr ? "" : spec.key;
    if (std::strcmp(key, kMaxNumelSpec) != 0) {
      return fail(Error::NotSupported,
                  "DemoBackend: unknown compile spec '%s' (known: max_numel)", key);
    }
    if (spec.nbytes == 0 || spec.nbytes > 8 || spec.value == nullptr) {
      return fail(Error::InvalidArgument,
                  "DemoBackend: compile spec max_numel has %zu bytes, expected 1..8", spec.nbytes);
    }
    uint64_t v = 0;
    const auto* bytes = static_cast<const uint8_t*>(spec.value);
    for (size_t b = 0; b < spec.nbytes; ++b) v |= uint64_t{bytes[b]} << (8 * b);
    if (v == 0) {
      return fail(Error::InvalidArgument, "DemoBackend: compile spec max_numel is 0");
    }
    options->max_numel = v;
  }
  return Error::Ok;
}

}  // namespace

runtime::Result<runtime::DelegateHandle*> DemoBackend::init(
    runtime::BackendInitContext& context, runtime::FreeableBuffer* processed,
    runtime::Span<const runtime::CompileSpec> compile_specs) const {
  LoadOptions options;
  EMBER_TRY(parse_specs(compile_specs, &options));
  if (context.runtime_allocator() == nullptr) {
    return fail(Error::InvalidArgument, "DemoBackend: no runtime allocator");
  }
  auto program = load_program(static_cast<const uint8_t*>(processed->data()), processed->size(),
                              context.runtime_allocator(), options);
  if (!program.ok()) {
    return runtime::annotate(program.error(), "method '%s': DemoBackend init",
                             context.method_name() == nullptr ? "?" : context.method_name());
  }
  processed->free();  // everything needed was copied into the method allocator
  return static_cast<runtime::DelegateHandle*>(program.get());
}

Error DemoBackend::execute(runtime::BackendExecutionContext& context,
                           runtime::DelegateHandle* handle,
                           runtime::Span<runtime::EValue*> args) const {
  if (handle == nullptr) {
    return fail(Error::DelegateInvalidHandle, "DemoBackend: null delegate handle");
  }
  return run_program(*static_cast<const DemoProgram*>(handle), args, context.profiler(), context.instruction());
}

DemoBackend& backend_instance() {
  static DemoBackend backend;
  return backend;
}

Error register_backend(runtime::BackendRegistry& registry) {
  return registry.register_backend(kBackendName, &backend_instance());
}

}  // namespace ember::backends::demo
