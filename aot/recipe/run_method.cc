// run_pte_method / missing_kernels (see run_method.h).
#include "aot/recipe/run_method.h"

#include <deque>
#include <memory>

#include "kernels/fft/register_kernels.h"
#include "kernels/portable/register_kernels.h"
#include "runtime/backend/backend_registry.h"
#include "runtime/core/diagnostics.h"
#include "runtime/executor/pte_container.h"
#include "runtime/kernel/kernel_registry.h"
#include "runtime/kernel/prim_ops/prim_ops.h"
#include "runtime/module/module.h"
#include "schema/program_generated.h"

namespace ember::aot {

namespace {

using RegistryPtr = std::unique_ptr<runtime::FixedKernelRegistry<runtime::kDefaultKernelRegistryCapacity>>;

Result<RegistryPtr> make_registry() {
  auto reg = std::make_unique<runtime::FixedKernelRegistry<runtime::kDefaultKernelRegistryCapacity>>();
  runtime::Error e = runtime::register_prim_ops(*reg);
  if (e == runtime::Error::Ok) e = kernels::portable::register_kernels(*reg);
  if (e == runtime::Error::Ok) e = kernels::fft::register_kernels(*reg);
  if (e != runtime::Error::Ok) {
    return fail(Error::Internal, std::string("registering kernels: ") + runtime::error_name(e));
  }
  return reg;
}

// Includes the runtime's own message (what failed, expected vs actual) when it recorded one.
Error runtime_error(Error e, const std::string& what) {
  const std::string context = what + ": " + error_name(e) + " (" + runtime::error_meaning(e) + ")";
  return last_error_message()[0] == '\0' ? fail(e, context) : annotate(e, context);
}

// Per-input storage the runtime Tensor points into.
struct InputTensor {
  std::vector<int32_t> sizes;
  std::vector<uint8_t> dim_order;
  std::vector<int32_t> strides;
  std::vector<uint8_t> bytes;
  runtime::Tensor tensor;
};

// Stands in for a backend during check_pte_loads: accepts every payload, runs nothing.
class AcceptingBackend final : public runtime::BackendInterface {
 public:
  bool is_available() const override { return true; }
  runtime::Result<runtime::DelegateHandle*> init(runtime::BackendInitContext&, runtime::FreeableBuffer*,
                                                 runtime::Span<const runtime::CompileSpec>) const override {
    return static_cast<runtime::DelegateHandle*>(nullptr);
  }
  runtime::Error execute(runtime::BackendExecutionContext&, runtime::DelegateHandle*,
                         runtime::Span<runtime::EValue*>) const override {
    return runtime::Error::NotSupported;
  }
};

}  // namespace

struct PteRunner::Impl {
  RegistryPtr registry;
  std::unique_ptr<runtime::Module> module;
};

PteRunner::PteRunner(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
PteRunner::~PteRunner() = default;

Result<std::unique_ptr<PteRunner>> PteRunner::load(const std::vector<uint8_t>& pte,
                                                     const RunOptions& options) {
  auto impl = std::make_unique<Impl>();
  EMBER_ASSIGN_OR_RETURN(impl->registry, make_registry());
  impl->module = std::make_unique<runtime::Module>(pte.data(), pte.size());
  runtime::Module::Options mo;
  mo.method.kernels = impl->registry.get();
  mo.method.backends = options.backends;
  impl->module->set_options(mo);
  runtime::clear_error_message();
  runtime::Error e = impl->module->load();
  if (e != runtime::Error::Ok) return runtime_error(e, "loading the program");
  return std::unique_ptr<PteRunner>(new PteRunner(std::move(impl)));
}

Result<std::vector<HostTensor>> PteRunner::run(const std::string& method,
                                                 const std::vector<HostTensor>& inputs) {
  std::vector<std::unique_ptr<InputTensor>> storage;
  std::vector<runtime::EValue> args;
  for (const HostTensor& in : inputs) {
    auto t = std::make_unique<InputTensor>();
    size_t rank = in.sizes.size();
    for (int64_t s : in.sizes) t->sizes.push_back(static_cast<int32_t>(s));
    for (size_t k = 0; k < rank; ++k) t->dim_order.push_back(static_cast<uint8_t>(k));
    t->strides.resize(rank);
    t->bytes = in.bytes;
    t->tensor = runtime::Tensor(static_cast<runtime::ScalarType>(in.dtype), rank, t->sizes.data(),
                                t->dim_order.data(), t->strides.data(), t->bytes.data());
    args.emplace_back(&t->tensor);
    storage.push_back(std::move(t));
  }
  runtime::clear_error_message();
  auto outputs = impl_->module->execute(method, args);
  if (!outputs.ok()) return runtime_error(outputs.error(), "running method '" + method + "'");
  std::vector<HostTensor> result;
  for (const runtime::EValue& v : *outputs) {
    if (!v.is_tensor()) return not_supported("method '" + method + "' returned a non-tensor output");
    const runtime::Tensor& t = v.to_tensor();
    HostTensor h;
    h.dtype = static_cast<ScalarType>(t.scalar_type());
    for (size_t d = 0; d < t.dim(); ++d) h.sizes.push_back(t.size(d));
    const uint8_t* p = static_cast<const uint8_t*>(t.const_data_ptr());
    h.bytes.assign(p, p + t.nbytes());
    result.push_back(std::move(h));
  }
  return result;
}

Result<std::vector<HostTensor>> run_pte_method(const std::vector<uint8_t>& pte,
                                                 const std::string& method,
                                                 const std::vector<HostTensor>& inputs,
                                                 const RunOptions& options) {
  EMBER_ASSIGN_OR_RETURN(std::unique_ptr<PteRunner> runner, PteRunner::load(pte, options));
  return runner->run(method, inputs);
}

Error check_pte_loads(const std::vector<uint8_t>& pte) {
  const std::string bug = "the emitted .pte fails Ember's own loader (a lowering bug)";
  Result<runtime::PteContainer> container = runtime::PteContainer::open(pte.data(), pte.size());
  if (!container.ok()) return runtime_error(container.error(), bug);
  const auto* program = static_cast<const executorch_flatbuffer::Program*>(container->program_root());
  // One stand-in per backend id the program names (the registry keeps the name pointers).
  std::deque<std::string> ids;
  AcceptingBackend accepting;
  runtime::BackendRegistry backends;
  if (program->execution_plan() != nullptr) {
    for (const auto* plan : *program->execution_plan()) {
      if (plan->delegates() == nullptr) continue;
      for (const auto* d : *plan->delegates()) {
        if (d->id() == nullptr || backends.find(d->id()->string_view()).ok()) continue;
        ids.push_back(d->id()->str());
        if (backends.register_backend(ids.back().c_str(), &accepting) != runtime::Error::Ok) {
          return fail(Error::NotSupported, "the program names more than " +
                                               std::to_string(runtime::BackendRegistry::kMaxBackends) +
                                               " backends");
        }
      }
    }
  }
  EMBER_ASSIGN_OR_RETURN(RegistryPtr kernels, make_registry());
  runtime::Module module(pte.data(), pte.size());
  runtime::Module::Options mo;
  mo.method.kernels = kernels.get();
  mo.method.backends = &backends;
  module.set_options(mo);
  runtime::clear_error_message();
  if (runtime::Error e = module.load(); e != runtime::Error::Ok) {
    return runtime_error(e, "the emitted .pte fails Ember's own loader (a lowering bug)");
  }
  auto names = module.method_names();
  if (!names.ok()) return runtime_error(names.error(), bug);
  for (const std::string& name : *names) {
    runtime::clear_error_message();
    auto method = module.load_method(name);
    if (method.ok() || method.error() == runtime::Error::OperatorMissing) continue;
    return runtime_error(method.error(), bug + ": method '" + name + "'");
  }
  return Error::Ok;
}

std::vector<std::string> missing_kernels(const std::vector<uint8_t>& pte) {
  std::vector<std::string> missing;
  auto registry = make_registry();
  if (!registry.ok()) return missing;
  Result<runtime::PteContainer> container = runtime::PteContainer::open(pte.data(), pte.size());
  if (!container.ok()) return missing;
  const auto* program = static_cast<const executorch_flatbuffer::Program*>(container->program_root());
  if (program->execution_plan() == nullptr) return missing;
  for (const auto* plan : *program->execution_plan()) {
    if (plan->operators() == nullptr) continue;
    for (const auto* op : *plan->operators()) {
      std::string key = op->name() == nullptr ? "" : op->name()->str();
      std::string overload = op->overload() == nullptr ? "" : op->overload()->str();
      if (!overload.empty()) key += "." + overload;
      if (!registry.get()->contains(key)) missing.push_back(key);
    }
  }
  return missing;
}

}  // namespace ember::aot
