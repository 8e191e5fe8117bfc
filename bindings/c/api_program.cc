// ember_program_*: loading a .pte from a file (mmap) or the caller's bytes (no copy), with
// an optional .ptd, into a handle that is allocated or placed in the caller's storage.
#include <cstring>
#include <new>

#include "bindings/c/handles.h"
#include "runtime/executor/input_guards.h"

namespace ember::capi {
namespace {

using runtime::Error;
using runtime::fail;

// A new handle, in the caller's storage when the options give some.
Error new_program(const ember_program_options& options, ember_program** out) {
  if (options.storage == nullptr) {
    *out = new_heap<ember_program>();
    if (*out == nullptr)
      return fail(Error::MemoryAllocationFailed, "cannot allocate a program handle");
    return Error::Ok;
  }
  if (options.storage_size < sizeof(ember_program)) {
    return fail(Error::MemoryAllocationFailed,
                "program storage has %zu bytes, needs %zu (ember_program_storage_size)",
                options.storage_size, sizeof(ember_program));
  }
  if (reinterpret_cast<uintptr_t>(options.storage) % alignof(ember_program) != 0) {
    return fail(Error::InvalidArgument, "program storage must be %zu-byte aligned",
                alignof(ember_program));
  }
  *out = new (options.storage) ember_program();
  (*out)->in_caller_storage = true;
  return Error::Ok;
}


// Loads the .ptd (if any) and the program through `loader`.
Error load_into(ember_program* p, runtime::DataLoader* loader,
                const ember_program_options& options) {
  if (options.data_path != nullptr) {
    runtime::Result<runtime::MmapDataLoader> l = runtime::MmapDataLoader::from(options.data_path);
    if (!l.ok()) return runtime::annotate(l.error(), "data file '%s'", options.data_path);
    p->data_file.emplace(std::move(*l));
    runtime::Result<runtime::FlatTensorDataMap> map =
        runtime::FlatTensorDataMap::load(&*p->data_file);
    if (!map.ok()) return runtime::annotate(map.error(), "data file '%s'", options.data_path);
    p->data_map.emplace(std::move(*map));
  }
  const auto verification = options.minimal_verification != 0
                                ? runtime::Program::Verification::Minimal
                                : runtime::Program::Verification::InternalConsistency;
  runtime::Result<runtime::Program> program = runtime::Program::load(loader, verification);
  if (!program.ok()) return program.error();
  p->program.emplace(std::move(*program));
  return Error::Ok;
}

// Shared tail of both loads: the handle on success, nothing (and the message) on failure.
ember_status load(const void* data, size_t size, const char* path, const ember_program_options* in,
                  ember_program** out) {
  runtime::clear_error_message();
  if (out == nullptr)
    return to_status(fail(Error::InvalidArgument, "program (the output pointer) is NULL"));
  *out = nullptr;
  ember_program_options options;
  ember_program_options_init(&options);
  if (Error e = read_options(in, &options, "ember_program_options"); e != Error::Ok)
    return to_status(e);
  ember_program* p = nullptr;
  if (Error e = new_program(options, &p); e != Error::Ok) return to_status(e);
  Error e = Error::Ok;
  if (path != nullptr) {
    runtime::Result<runtime::MmapDataLoader> l = runtime::MmapDataLoader::from(path);
    if (l.ok()) {
      p->file.emplace(std::move(*l));
      e = load_into(p, &*p->file, options);
    } else {
      e = l.error();
    }
    if (e != Error::Ok) runtime::annotate(e, "loading '%s'", path);
  } else {
    p->bytes.emplace(data, size);
    e = load_into(p, &*p->bytes, options);
  }
  if (e == Error::Ok) e = register_handle(p, HandleKind::Program);
  if (e != Error::Ok) {
    delete_program(p);
    return to_status(e);
  }
  *out = p;
  return EMBER_OK;
}

}  // namespace

void delete_program(ember_program* p) {
  if (p == nullptr) return;
  if (p->in_caller_storage) {
    p->~ember_program();
  } else {
    destroy_heap(p);
  }
}

}  // namespace ember::capi

using ember::capi::finish;
using ember::capi::to_status;
using ember::runtime::Error;
using ember::runtime::fail;

extern "C" {

size_t ember_program_storage_size(void) { return sizeof(ember_program); }

ember_status ember_program_load_file(const char* path, const ember_program_options* options,
                                     ember_program** program) {
  if (path == nullptr) {
    if (program != nullptr) *program = nullptr;
    return to_status(fail(Error::InvalidArgument, "path is NULL"));
  }
  return ember::capi::load(nullptr, 0, path, options, program);
}

ember_status ember_program_load_buffer(const void* data, size_t size,
                                       const ember_program_options* options,
                                       ember_program** program) {
  if (data == nullptr) {
    if (program != nullptr) *program = nullptr;
    return to_status(fail(Error::InvalidArgument, "data is NULL"));
  }
  return ember::capi::load(data, size, nullptr, options, program);
}

// Issue #33: a second destroy, or a destroy of something that is not a live program, is a
// no-op with a message (ember_last_error_message); a program destroyed before its methods
// is refused to every later call at once and freed with its last method.
void ember_program_destroy(ember_program* program) {
  ember::runtime::clear_error_message();
  if (program == nullptr) return;
  {
    ember::capi::RegistryLock lock;
    if (ember::capi::check_handle_locked(program, ember::capi::HandleKind::Program, "program") != Error::Ok) {
      return;
    }
    ember::capi::unregister_handle_locked(program, ember::capi::HandleKind::Program);
    if (program->live_methods > 0) {
      program->destroy_pending = true;
      return;
    }
  }
  ember::capi::delete_program(program);
}

const char* ember_program_last_error(const ember_program* program) {
  if (ember::capi::check_handle(program, ember::capi::HandleKind::Program, "program") != Error::Ok) return "";
  return program->error;
}

size_t ember_program_method_count(const ember_program* program) {
  if (ember::capi::check_handle(program, ember::capi::HandleKind::Program, "program") != Error::Ok) return 0;
  size_t n = 0;
  for (size_t i = 0; i < program->program->num_methods(); ++i) {
    ember::runtime::Result<const char*> name = program->program->get_method_name(i);
    if (name.ok() && !ember::runtime::is_guard_method_name(*name)) ++n;
  }
  return n;
}

ember_status ember_program_method_name(const ember_program* program, size_t index,
                                       const char** name) {
  ember::runtime::clear_error_message();
  if (Error e = ember::capi::check_handle(program, ember::capi::HandleKind::Program, "program"); e != Error::Ok) {
    return to_status(e);
  }
  char* error = const_cast<ember_program*>(program)->error;  // the message is mutable state
  if (name == nullptr) return finish(error, fail(Error::InvalidArgument, "name is NULL"));
  size_t seen = 0;
  for (size_t i = 0; i < program->program->num_methods(); ++i) {
    ember::runtime::Result<const char*> n = program->program->get_method_name(i);
    if (!n.ok()) return finish(error, n.error());
    if (ember::runtime::is_guard_method_name(*n)) continue;
    if (seen++ == index) {
      *name = *n;
      return EMBER_OK;
    }
  }
  return finish(error,
                fail(Error::InvalidArgument,
                     "method index %zu out of range (the program has %zu methods)", index, seen));
}

}  // extern "C"
