#include "runtime/module/module.h"

#include <cstdlib>
#include <cstring>

#include "runtime/core/diagnostics.h"
#include "runtime/core/hierarchical_allocator.h"
#include "runtime/core/memory_manager.h"
#include "runtime/loader/buffer_data_loader.h"
#include "runtime/loader/file_data_loader.h"
#include "runtime/loader/flat_tensor_data_map.h"
#include "runtime/loader/mmap_data_loader.h"
#include "runtime/module/growing_memory_allocator.h"

namespace ember::runtime {

namespace {

constexpr size_t kAlignment = 64;
void free_bytes(uint8_t* p) { std::free(p); }

uint8_t* aligned_bytes(size_t size) {
  const size_t rounded = (size + kAlignment - 1) / kAlignment * kAlignment;
  return static_cast<uint8_t*>(std::aligned_alloc(kAlignment, rounded == 0 ? kAlignment : rounded));
}

}  // namespace

// The first chunk of a method allocator; later chunks double (see
// growing_memory_allocator.h). Small programs fit in the first.
constexpr size_t kFirstMethodChunkBytes = size_t(64) << 10;

struct Module::LoadedMethod {
  explicit LoadedMethod(size_t max_method_bytes)
      : method_allocator(kFirstMethodChunkBytes, max_method_bytes) {}

  std::unique_ptr<uint8_t[], void (*)(uint8_t*)> temp_pool{nullptr, free_bytes};
  std::vector<std::unique_ptr<uint8_t[], void (*)(uint8_t*)>> planned;
  std::vector<Span<uint8_t>> spans;
  GrowingMemoryAllocator method_allocator;
  MemoryAllocator temp_allocator;
  HierarchicalAllocator planned_memory;
  std::unique_ptr<MemoryManager> memory;
  std::unique_ptr<Method> method;
};

Module::Module(std::string path, LoadMode mode)
    : path_(std::move(path)), mode_(mode), bytes_(nullptr, free_bytes) {}

Module::Module(std::string path, std::string data_path, LoadMode mode)
    : path_(std::move(path)), data_path_(std::move(data_path)), mode_(mode), bytes_(nullptr, free_bytes) {}

Module::Module(const void* data, size_t size) : bytes_(aligned_bytes(size), free_bytes), bytes_size_(size) {
  if (bytes_ != nullptr && size > 0) std::memcpy(bytes_.get(), data, size);
}

Module::~Module() {
  instances_.clear();  // Methods before the Program, the Program before the loader
  methods_.clear();
  program_.reset();
  data_map_.reset();
}

Error Module::load_data_map() {
  if (data_path_.empty() || data_map_ != nullptr) return Error::Ok;
  Result<MmapDataLoader> l = MmapDataLoader::from(data_path_.c_str());
  if (!l.ok()) return annotate(l.error(), "data file '%s'", data_path_.c_str());
  data_loader_ = std::make_unique<MmapDataLoader>(std::move(*l));
  Result<FlatTensorDataMap> map = FlatTensorDataMap::load(data_loader_.get());
  if (!map.ok()) return annotate(map.error(), "data file '%s'", data_path_.c_str());
  data_map_ = std::make_unique<FlatTensorDataMap>(std::move(*map));
  return Error::Ok;
}

Error Module::load() {
  if (program_ != nullptr) return Error::Ok;
  EMBER_TRY(load_data_map());
  if (loader_ == nullptr) {
    if (bytes_ != nullptr) {
      loader_ = std::make_unique<BufferDataLoader>(bytes_.get(), bytes_size_);
    } else if (mode_ == LoadMode::Mmap) {
      Result<MmapDataLoader> l = MmapDataLoader::from(path_.c_str());
      if (!l.ok()) return l.error();
      loader_ = std::make_unique<MmapDataLoader>(std::move(*l));
    } else {
      Result<FileDataLoader> l = FileDataLoader::from(path_.c_str());
      if (!l.ok()) return l.error();
      loader_ = std::make_unique<FileDataLoader>(std::move(*l));
    }
  }
  Result<Program> program = Program::load(loader_.get(), options_.verification);
  if (!program.ok()) return program.error();
  program_ = std::make_unique<Program>(std::move(*program));
  return Error::Ok;
}

Result<std::vector<std::string>> Module::method_names() {
  EMBER_TRY(load());
  std::vector<std::string> names;
  for (size_t i = 0; i < program_->num_methods(); ++i) {
    Result<const char*> name = program_->get_method_name(i);
    if (!name.ok()) return name.error();
    if (is_guard_method_name(*name)) continue;  // metadata of another method (input_guards.h)
    names.emplace_back(*name);
  }
  return names;
}

Result<MethodMeta> Module::method_meta(const std::string& name) {
  EMBER_TRY(load());
  return program_->method_meta(name.c_str());
}

// Planned buffers come from MethodMeta's sizes, the method allocator grows on
// demand (capped by max_method_allocator_bytes): the load runs exactly once, so
// each delegate's init runs once and a failure is returned as it happened.
Result<Method*> Module::load_method(const std::string& name) {
  EMBER_TRY(load());
  auto it = methods_.find(name);
  if (it != methods_.end()) return it->second->method.get();
  EMBER_ASSIGN_OR_RETURN(std::unique_ptr<LoadedMethod> m, new_method(name));
  Method* loaded = m->method.get();
  methods_[name] = std::move(m);
  return loaded;
}

Result<Method*> Module::load_method_instance(const std::string& name) {
  EMBER_TRY(load());
  EMBER_ASSIGN_OR_RETURN(std::unique_ptr<LoadedMethod> m, new_method(name));
  Method* loaded = m->method.get();
  instances_.push_back(std::move(m));
  return loaded;
}

void Module::unload_method_instance(const Method* method) {
  for (auto it = instances_.begin(); it != instances_.end(); ++it) {
    if ((*it)->method.get() == method) {
      instances_.erase(it);
      return;
    }
  }
}

Result<std::unique_ptr<Module::LoadedMethod>> Module::new_method(const std::string& name) {
  Result<MethodMeta> meta = program_->method_meta(name.c_str());
  if (!meta.ok()) return meta.error();
  Result<PlannedMemory> plan = check_planned_memory(*meta, options_.max_planned_memory_bytes);
  if (!plan.ok()) return plan.error();
  auto m = std::make_unique<LoadedMethod>(options_.max_method_allocator_bytes);
  for (size_t i = 0; i < meta->num_memory_planned_buffers(); ++i) {
    Result<int64_t> size = meta->memory_planned_buffer_size(i);
    if (!size.ok()) return size.error();
    m->planned.emplace_back(aligned_bytes(size_t(*size)), free_bytes);
    if (m->planned.back() == nullptr) {
      return fail(Error::MemoryAllocationFailed, "cannot allocate planned buffer %zu (%lld bytes)", i,
                  static_cast<long long>(*size));
    }
    m->spans.emplace_back(m->planned.back().get(), size_t(*size));
  }
  m->planned_memory = HierarchicalAllocator(Span<Span<uint8_t>>(m->spans.data(), m->spans.size()));
  m->temp_pool.reset(aligned_bytes(options_.temp_allocator_bytes));
  if (m->temp_pool == nullptr) {
    return fail(Error::MemoryAllocationFailed, "cannot allocate the temp allocator (%zu bytes)",
                options_.temp_allocator_bytes);
  }
  m->temp_allocator = MemoryAllocator(m->temp_pool.get(), options_.temp_allocator_bytes);
  m->memory = std::make_unique<MemoryManager>(&m->method_allocator, &m->planned_memory, &m->temp_allocator);
  MethodLoadOptions options = options_.method;
  if (data_map_ != nullptr && options.external_data == nullptr) options.external_data = data_map_.get();
  Result<Method> method = program_->load_method(name.c_str(), m->memory.get(), options);
  if (!method.ok()) return method.error();
  m->method = std::make_unique<Method>(std::move(*method));
  return m;
}

const Module::LoadedMethod* Module::find_loaded(const Method& method) const {
  for (const auto& [name, m] : methods_) {
    if (m->method.get() == &method) return m.get();
  }
  for (const auto& m : instances_) {
    if (m->method.get() == &method) return m.get();
  }
  return nullptr;
}

Result<std::vector<Module::StateRange>> Module::method_state(const Method& method) const {
  const LoadedMethod* loaded = find_loaded(method);
  if (loaded == nullptr) {
    return fail(Error::InvalidArgument, "method_state: the method is not one this Module holds");
  }
  std::vector<StateRange> ranges;
  const MethodMeta meta = method.method_meta();
  for (size_t i = 0; i < method.num_values(); ++i) {
    if (!meta.is_mutable_buffer(i)) continue;
    EMBER_ASSIGN_OR_RETURN(Span<uint8_t> bytes, method.mutable_buffer(i));
    ranges.push_back({StateRange::Kind::MutableBuffer, static_cast<uint32_t>(i), bytes});
  }
  if (!ranges.empty()) return ranges;
  for (size_t i = 0; i < loaded->spans.size(); ++i) {
    ranges.push_back({StateRange::Kind::PlannedBuffer, static_cast<uint32_t>(i), loaded->spans[i]});
  }
  return ranges;
}

void Module::unload_method(const std::string& name) { methods_.erase(name); }

size_t Module::method_allocator_used(const std::string& name) const {
  auto it = methods_.find(name);
  return it == methods_.end() ? 0 : it->second->method_allocator.used();
}

Result<std::vector<EValue>> Module::execute(const std::string& name, const std::vector<EValue>& inputs) {
  Result<Method*> method = load_method(name);
  if (!method.ok()) return method.error();
  Method& m = **method;
  if (inputs.size() != m.inputs_size()) {
    return fail(Error::InvalidArgument, "method '%s' takes %zu inputs, %zu given", name.c_str(),
                m.inputs_size(), inputs.size());
  }
  for (size_t i = 0; i < inputs.size(); ++i) EMBER_TRY(m.set_input(inputs[i], i));
  EMBER_TRY(m.execute());
  std::vector<EValue> outputs(m.outputs_size());
  EMBER_TRY(m.get_outputs(outputs.data(), outputs.size()));
  return outputs;
}

}  // namespace ember::runtime
