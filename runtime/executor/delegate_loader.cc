// Resolves each BackendDelegate of a method against the backend registry and
// initialises it (pte-format.md 5.3): processed blob (inline or segment),
// compile specs copied into the method allocator, then init().
#include "runtime/executor/method_state.h"

namespace ember::runtime::internal {
namespace {

// The program's named data, then the caller's external map.
class MergedDataMap final : public NamedDataMap {
 public:
  MergedDataMap(const NamedDataMap* first, const NamedDataMap* second)
      : first_(first), second_(second) {}

  Result<FreeableBuffer> get_data(std::string_view key) const override {
    if (first_ != nullptr) {
      for (size_t i = 0; i < first_->num_keys(); ++i) {
        Result<std::string_view> k = first_->key_at(i);
        if (k.ok() && *k == key) return first_->get_data(key);
      }
    }
    if (second_ != nullptr) return second_->get_data(key);
    return fail(Error::NotFound, "named data key '%.*s' not found", int(key.size()), key.data());
  }
  size_t num_keys() const override {
    return (first_ ? first_->num_keys() : 0) + (second_ ? second_->num_keys() : 0);
  }
  Result<std::string_view> key_at(size_t i) const override {
    const size_t n = first_ ? first_->num_keys() : 0;
    if (i < n) return first_->key_at(i);
    if (second_ != nullptr) return second_->key_at(i - n);
    return fail(Error::InvalidArgument, "named data index %zu out of range", i);
  }

 private:
  const NamedDataMap* first_;
  const NamedDataMap* second_;
};

Result<FreeableBuffer> processed_blob(LoadContext& ctx, size_t i, const fb::BackendDelegate* d) {
  const fb::BackendDelegateDataReference* ref = d->processed();
  if (ref == nullptr) return fail(Error::InvalidProgram, "delegate %zu has no processed data", i);
  if (ref->location() == fb::DataLocation::INLINE) {
    const auto* inline_data = as_program(ctx.program.flatbuffer_root())->backend_delegate_data();
    if (ref->index() >= size_of(inline_data)) {
      return fail(Error::InvalidProgram, "delegate %zu: inline data index %u out of range (%zu)", i,
                  ref->index(), size_of(inline_data));
    }
    const auto* bytes = inline_data->Get(ref->index())->data();
    if (bytes == nullptr) return FreeableBuffer(nullptr, 0);
    return FreeableBuffer(bytes->data(), bytes->size());
  }
  if (ref->location() != fb::DataLocation::SEGMENT) {
    return fail(Error::InvalidProgram, "delegate %zu: unknown data location %d", i, int(ref->location()));
  }
  SegmentInfo info{SegmentInfo::Type::Backend, ref->index(), d->id()->c_str()};
  Result<FreeableBuffer> blob = ctx.program.load_segment(ref->index(), info);
  if (!blob.ok()) return annotate(blob.error(), "delegate %zu (%s)", i, d->id()->c_str());
  return blob;
}

Error copy_compile_specs(LoadContext& ctx, size_t i, const fb::BackendDelegate* d,
                         Span<const CompileSpec>* out) {
  const size_t n = size_of(d->compile_specs());
  CompileSpec* specs = nullptr;
  EMBER_TRY(allocate_array(ctx.memory->method_allocator(), n, "compile specs", &specs));
  for (size_t k = 0; k < n; ++k) {
    const fb::CompileSpec* spec = d->compile_specs()->Get(flatbuffers::uoffset_t(k));
    if (spec->key() == nullptr) {
      return fail(Error::InvalidProgram, "delegate %zu: compile spec %zu has no key", i, k);
    }
    specs[k] = CompileSpec{spec->key()->c_str(), spec->value() ? spec->value()->data() : nullptr,
                           spec->value() ? spec->value()->size() : 0};
  }
  *out = Span<const CompileSpec>(specs, n);
  return Error::Ok;
}

Error init_delegate(LoadContext& ctx, size_t i, const fb::BackendDelegate* d, DelegateRecord* rec) {
  MethodState* s = ctx.state;
  if (d->id() == nullptr) return fail(Error::InvalidProgram, "delegate %zu has no backend id", i);
  rec->id = d->id()->c_str();
  Result<BackendInterface*> backend = ctx.backends->find(rec->id);
  if (!backend.ok()) {
    char names[160];
    return fail(Error::NotFound, "method '%s' needs backend '%s', which is not registered (registered: %s)",
                s->name, rec->id, ctx.backends->describe_names(names, sizeof(names)));
  }
  if (!(*backend)->is_available()) {
    return fail(Error::NotFound, "method '%s' needs backend '%s', which is not available here",
                s->name, rec->id);
  }
  rec->backend = *backend;
  Result<FreeableBuffer> blob = processed_blob(ctx, i, d);
  if (!blob.ok()) return blob.error();
  rec->processed = std::move(*blob);
  Span<const CompileSpec> specs;
  EMBER_TRY(copy_compile_specs(ctx, i, d, &specs));
  BackendInitContext init_context(ctx.memory->method_allocator(), s->name, s->named_data);
  Result<DelegateHandle*> handle = rec->backend->init(init_context, &rec->processed, specs);
  if (!handle.ok()) {
    rec->processed.free();
    return annotate(handle.error(), "method '%s': init of delegate %zu (%s)", s->name, i, rec->id);
  }
  rec->handle = *handle;
  rec->initialized = true;
  return Error::Ok;
}

}  // namespace

Error init_delegates(LoadContext& ctx) {
  MethodState* s = ctx.state;
  const auto* delegates = ctx.plan->delegates();
  s->num_delegates = size_of(delegates);
  if (s->num_delegates == 0) return Error::Ok;
  void* memory = ctx.memory->method_allocator()->allocate(sizeof(MergedDataMap), alignof(MergedDataMap));
  if (memory == nullptr) {
    return fail(Error::MemoryAllocationFailed, "method allocator exhausted (named data map)");
  }
  s->named_data = new (memory) MergedDataMap(&ctx.program.named_data_map(), ctx.external_data);
  EMBER_TRY(allocate_array(ctx.memory->method_allocator(), s->num_delegates, "delegates", &s->delegates));
  for (size_t i = 0; i < s->num_delegates; ++i) {
    EMBER_TRY(init_delegate(ctx, i, delegates->Get(flatbuffers::uoffset_t(i)), &s->delegates[i]));
  }
  return Error::Ok;
}

}  // namespace ember::runtime::internal
