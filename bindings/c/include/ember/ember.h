/* ember.h: the stable C API of the Ember runtime (C99; also valid C++).
 *
 * The one door every binding goes through: Java/JNI (bindings/java), Swift (bindings/swift),
 * and any language with a C FFI. It loads an ExecuTorch program (.pte), creates methods,
 * sets inputs, executes and reads outputs. The library is libember.so (exports only the
 * ember_* symbols below) or the static library libember.a; both link the portable kernels
 * and the XNNPACK backend.
 *
 * From a .pt2 to a result in C (docs/embedding.md has the whole walk-through):
 *
 *   bazel build //apps/lower //bindings/c:libember.so
 *   bazel-bin/apps/lower/lower model.pt2 -o model.pte          (or --recipe xnnpack)
 *   cc -std=c99 -Ibindings/c/include app.c bazel-bin/bindings/c/libember.so \
 *      -Wl,-rpath,$PWD/bazel-bin/bindings/c -o app
 *   ./app model.pte input.bin
 *
 * where app.c (docs/embedding.md's run.c is a complete one) does:
 *
 *   ember_program* program = NULL;
 *   ember_method* method = NULL;
 *   if (ember_program_load_file("model.pte", NULL, &program) != EMBER_OK) {
 *     fprintf(stderr, "%s\n", ember_last_error_message());
 *     return 1;
 *   }
 *   ember_method_create(program, "forward", NULL, &method);
 *   ember_method_set_input(method, 0, EMBER_DTYPE_FLOAT, input, sizeof(input));
 *   if (ember_method_execute(method) != EMBER_OK) puts(ember_method_last_error(method));
 *   ember_value out;
 *   ember_value_init(&out);
 *   ember_method_output(method, 0, &out);     (out.data, out.dtype, out.rank, out.sizes)
 *   ember_method_destroy(method);
 *   ember_program_destroy(program);
 *
 * Errors. Every call that can fail returns an ember_status whose numeric values are the
 * runtime's Error values (docs/error_handling.md); ember_status_name() gives the name
 * ("InvalidArgument"). The message ("input 0 expects float32[4,16] (256 bytes), got 255
 * bytes") is kept on the handle the call was made on (ember_program_last_error,
 * ember_method_last_error) and in the calling thread's ember_last_error_message(). No call
 * aborts on bad input: null pointers, bad indices, wrong sizes or dtypes and malformed files
 * all return a status.
 *
 * Memory. A method's memory is either runtime-owned (allocated once, in
 * ember_method_create, sized from the program's memory plan) or the caller's: one arena of
 * ember_method_memory_size() bytes given in ember_method_options.memory. With the caller's
 * arena (and program storage, see ember_program_options) creating a method, setting inputs,
 * executing and reading outputs call malloc zero times (with the portable kernels; XNNPACK
 * allocates its own runtime at method creation). Outputs alias the method's memory and stay
 * valid until the next execute or destroy.
 *
 * Threads. A program may be shared by threads (create methods from any thread); a method
 * is used by one thread at a time: a call on a method while another thread is inside a call
 * on it returns EMBER_INVALID_STATE (and ember_method_destroy then does nothing). Strings
 * returned by the API live as long as their handle.
 *
 * Misuse. Every handle is looked up in a table of live handles before it is used, so misuse
 * is a status, never a crash: a call on a destroyed handle (or on a pointer that is not a
 * handle) returns EMBER_INVALID_ARGUMENT ("... is not a live ember_method handle"), and the
 * functions returning a count or a string return 0 or ""; destroying a handle twice, or
 * something that is not a handle, does nothing and sets ember_last_error_message().
 * Destroying a program before its methods is allowed: the program handle is refused from
 * then on, and its memory is freed with its last method. At most 65,535 handles are live at
 * once (EMBER_OUT_OF_RESOURCES beyond). One limit: a stale pointer whose address a newer
 * handle now has is that newer handle.
 *
 * ABI. Option and result structs begin with struct_size: initialise them with their
 * *_init() function, which sets struct_size = sizeof(the struct as compiled); the library
 * reads and writes only the fields that size covers, so a program built against an older
 * header keeps working with a newer library. Enum values and status codes never change.
 */
#ifndef EMBER_EMBER_H_
#define EMBER_EMBER_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define EMBER_EXPORT __attribute__((visibility("default")))
#else
#define EMBER_EXPORT
#endif

/* Version of this header; ember_version() returns the library's. */
#define EMBER_VERSION_MAJOR 1
#define EMBER_VERSION_MINOR 0
#define EMBER_VERSION_PATCH 0
#define EMBER_VERSION \
  ((EMBER_VERSION_MAJOR << 16) | (EMBER_VERSION_MINOR << 8) | EMBER_VERSION_PATCH)

/* Largest rank a tensor may have. */
#define EMBER_MAX_RANK 16

/* Status codes: the runtime's Error values (runtime/core/error.h). */
typedef enum ember_status {
  EMBER_OK = 0x00,
  EMBER_INTERNAL = 0x01,
  EMBER_INVALID_STATE = 0x02,
  EMBER_END_OF_METHOD = 0x03,
  EMBER_ALREADY_LOADED = 0x04,
  EMBER_NOT_SUPPORTED = 0x10,
  EMBER_NOT_IMPLEMENTED = 0x11,
  EMBER_INVALID_ARGUMENT = 0x12,
  EMBER_INVALID_TYPE = 0x13,
  EMBER_OPERATOR_MISSING = 0x14,
  EMBER_REGISTRATION_EXCEEDING_MAX_KERNELS = 0x15,
  EMBER_REGISTRATION_ALREADY_REGISTERED = 0x16,
  EMBER_NOT_FOUND = 0x20,
  EMBER_MEMORY_ALLOCATION_FAILED = 0x21,
  EMBER_ACCESS_FAILED = 0x22,
  EMBER_INVALID_PROGRAM = 0x23,
  EMBER_INVALID_EXTERNAL_DATA = 0x24,
  EMBER_OUT_OF_RESOURCES = 0x25,
  EMBER_DELEGATE_INVALID_COMPATIBILITY = 0x30,
  EMBER_DELEGATE_MEMORY_ALLOCATION_FAILED = 0x31,
  EMBER_DELEGATE_INVALID_HANDLE = 0x32
} ember_status;

/* Element types: ExecuTorch's ScalarType codes (the most common ones are named). */
typedef enum ember_dtype {
  EMBER_DTYPE_UINT8 = 0,
  EMBER_DTYPE_INT8 = 1,
  EMBER_DTYPE_INT16 = 2,
  EMBER_DTYPE_INT32 = 3,
  EMBER_DTYPE_INT64 = 4,
  EMBER_DTYPE_HALF = 5,
  EMBER_DTYPE_FLOAT = 6,
  EMBER_DTYPE_DOUBLE = 7,
  EMBER_DTYPE_BOOL = 11,
  EMBER_DTYPE_BFLOAT16 = 15
} ember_dtype;

/* What an input or output holds: ExecuTorch's EValue tags. */
typedef enum ember_kind {
  EMBER_KIND_NONE = 0,
  EMBER_KIND_TENSOR = 1,
  EMBER_KIND_STRING = 2,
  EMBER_KIND_DOUBLE = 3,
  EMBER_KIND_INT = 4,
  EMBER_KIND_BOOL = 5,
  EMBER_KIND_LIST_BOOL = 6,
  EMBER_KIND_LIST_DOUBLE = 7,
  EMBER_KIND_LIST_INT = 8,
  EMBER_KIND_LIST_TENSOR = 9,
  EMBER_KIND_LIST_SCALAR = 10,
  EMBER_KIND_LIST_OPTIONAL_TENSOR = 11
} ember_kind;

typedef struct ember_program ember_program; /* a loaded, verified .pte */
typedef struct ember_method ember_method;   /* one method of a program, ready to run */

/* ---- Library ---------------------------------------------------------------------------- */

/* The library's version, (major << 16) | (minor << 8) | patch; compare with EMBER_VERSION. */
EMBER_EXPORT uint32_t ember_version(void);
/* "InvalidArgument" for EMBER_INVALID_ARGUMENT; "Unknown" for other values. */
EMBER_EXPORT const char* ember_status_name(ember_status status);
/* One-line meaning of a status ("an argument or input value is invalid"). */
EMBER_EXPORT const char* ember_status_meaning(ember_status status);
/* The calling thread's last error message ("" if none): the place to look when a load
 * failed and there is no handle. */
EMBER_EXPORT const char* ember_last_error_message(void);
/* "float32", "int64", ...; "unknown" for codes that are not element types. */
EMBER_EXPORT const char* ember_dtype_name(ember_dtype dtype);
/* Bytes per element; 0 for codes that are not element types. */
EMBER_EXPORT size_t ember_dtype_size(ember_dtype dtype);
/* Backends linked into this library ("XnnpackBackend"), for ember_method_options.backends. */
EMBER_EXPORT size_t ember_backend_count(void);
EMBER_EXPORT const char* ember_backend_name(size_t index); /* NULL when out of range */

/* ---- Program ---------------------------------------------------------------------------- */

typedef struct ember_program_options {
  size_t struct_size;
  /* Optional external data file (.ptd) for tensors the program marks EXTERNAL; mmapped. */
  const char* data_path;
  /* 0: full FlatBuffer verification (default, for untrusted files); 1: minimal (trusted). */
  int32_t minimal_verification;
  /* Optional storage for the program handle itself (ember_program_storage_size() bytes,
   * 16-byte aligned), so that loading from a buffer calls malloc zero times. NULL: the
   * handle is allocated. The storage must outlive the program. */
  void* storage;
  size_t storage_size;
} ember_program_options;

/* Sets struct_size and the defaults above. */
EMBER_EXPORT void ember_program_options_init(ember_program_options* options);
/* Bytes ember_program_options.storage must have. */
EMBER_EXPORT size_t ember_program_storage_size(void);

/* Loads and verifies the .pte at `path` (memory-mapped, read-only). `options` may be NULL.
 * On success *program is a new handle (free it with ember_program_destroy); on failure it
 * is NULL and ember_last_error_message() says why. */
EMBER_EXPORT ember_status ember_program_load_file(const char* path,
                                                  const ember_program_options* options,
                                                  ember_program** program);
/* Loads from `size` bytes at `data` without copying them: the caller keeps the bytes alive
 * and unchanged until ember_program_destroy. `data` must be 16-byte aligned. */
EMBER_EXPORT ember_status ember_program_load_buffer(const void* data, size_t size,
                                                    const ember_program_options* options,
                                                    ember_program** program);
/* Frees the program (NULL is a no-op). Destroy its methods first. */
EMBER_EXPORT void ember_program_destroy(ember_program* program);
/* The message of the last failed call on this program ("" if none). */
EMBER_EXPORT const char* ember_program_last_error(const ember_program* program);

/* Methods users can run, in file order (Ember's __ember_guards__* metadata is not listed). */
EMBER_EXPORT size_t ember_program_method_count(const ember_program* program);
EMBER_EXPORT ember_status ember_program_method_name(const ember_program* program, size_t index,
                                                    const char** name);

/* ---- Method ----------------------------------------------------------------------------- */

typedef struct ember_method_options {
  size_t struct_size;
  /* Threads for kernels and XNNPACK: 0 or 1 runs on the calling thread; more creates a
   * thread pool at method creation (capped at the number of online CPUs). XNNPACK's thread
   * count is process-wide in this build: the last method created sets it. */
  uint32_t num_threads;
  /* Backends the method may use, comma-separated ("XnnpackBackend"); "" for none (a
   * delegated program then fails to load with NotFound naming the backend); NULL (the
   * default) for every linked backend. */
  const char* backends;
  /* Kernel scratch memory, reset after every instruction; 0 means 1 MiB. */
  size_t temp_bytes;
  /* Caller-supplied memory: an arena of at least ember_method_memory_size() bytes, 64-byte
   * aligned, that outlives the method. NULL: the runtime allocates the memory. */
  void* memory;
  size_t memory_size;
  /* Nonzero: time every instruction of each execute (see ember_method_profile_entry). */
  int32_t profiling;
  /* The most planned memory (the sum of the buffers of the method's memory plan, which the
   * .pte names) a runtime-owned method may reserve, in bytes; 0 (the default) means
   * EMBER_DEFAULT_MAX_PLANNED_MEMORY (8 GiB). A plan over it fails ember_method_create and
   * ember_method_memory_size with EMBER_MEMORY_ALLOCATION_FAILED before anything is
   * reserved, the message naming the plan's total: a small untrusted file cannot make the
   * process reserve gigabytes. Raise it for a trusted program with a larger plan; with
   * caller memory the arena's size is the bound and this field is not used. A caller
   * compiled against an ember.h without this field (a smaller struct_size) gets the default. */
  uint64_t max_planned_memory_bytes;
} ember_method_options;

/* ember_method_options.max_planned_memory_bytes when it is 0: 8 GiB. */
#define EMBER_DEFAULT_MAX_PLANNED_MEMORY ((uint64_t)8 << 30)

EMBER_EXPORT void ember_method_options_init(ember_method_options* options);

/* Bytes of caller memory method `name` needs with these options (memory fields ignored):
 * the planned buffers of its memory plan, its load-time structures and the temp memory. */
EMBER_EXPORT ember_status ember_method_memory_size(ember_program* program, const char* name,
                                                   const ember_method_options* options,
                                                   size_t* bytes);
/* Creates method `name` (`options` may be NULL). Every allocation of a runtime-owned method
 * happens here. Errors name what is wrong (missing operator or backend, memory too small). */
EMBER_EXPORT ember_status ember_method_create(ember_program* program, const char* name,
                                              const ember_method_options* options,
                                              ember_method** method);
/* Frees the method and everything the runtime allocated for it (NULL is a no-op). */
EMBER_EXPORT void ember_method_destroy(ember_method* method);
EMBER_EXPORT const char* ember_method_last_error(const ember_method* method);
EMBER_EXPORT const char* ember_method_name(const ember_method* method);
EMBER_EXPORT size_t ember_method_input_count(const ember_method* method);
EMBER_EXPORT size_t ember_method_output_count(const ember_method* method);

/* What an input or output is. For a tensor: dtype, rank, current sizes, and per dim the
 * allowed range [min_sizes, max_sizes] (equal to sizes for a static tensor; for a dynamic
 * one max is the .pte's upper bound and min the export's lower bound, 0 when unknown). */
typedef struct ember_tensor_info {
  size_t struct_size;
  ember_kind kind;
  ember_dtype dtype;      /* tensors only */
  int32_t dynamic;        /* nonzero: a DYNAMIC_BOUND tensor that may be resized */
  int32_t memory_planned; /* nonzero: data lives in the method's planned memory */
  size_t rank;
  int64_t sizes[EMBER_MAX_RANK];
  int64_t min_sizes[EMBER_MAX_RANK];
  int64_t max_sizes[EMBER_MAX_RANK];
  size_t nbytes;     /* bytes of the current shape */
  size_t max_nbytes; /* bytes at the upper bounds */
} ember_tensor_info;

EMBER_EXPORT void ember_tensor_info_init(ember_tensor_info* info);
EMBER_EXPORT ember_status ember_method_input_info(const ember_method* method, size_t index,
                                                  ember_tensor_info* info);
EMBER_EXPORT ember_status ember_method_output_info(const ember_method* method, size_t index,
                                                   ember_tensor_info* info);

/* Copies `nbytes` at `data` into tensor input `index`. `dtype` must be the input's and
 * `nbytes` the byte size of its current shape (after ember_method_resize_input). */
EMBER_EXPORT ember_status ember_method_set_input(ember_method* method, size_t index,
                                                 ember_dtype dtype, const void* data,
                                                 size_t nbytes);
/* Uses the caller's `data` as tensor input `index` without a copy; it must stay valid and
 * unchanged through execute. Only for inputs the program does not memory-plan
 * (memory_planned == 0; NotSupported otherwise, use ember_method_set_input). */
EMBER_EXPORT ember_status ember_method_set_input_zero_copy(ember_method* method, size_t index,
                                                           ember_dtype dtype, void* data,
                                                           size_t nbytes);
/* Sets the shape of dynamic tensor input `index` (same rank, each dim within its range). */
EMBER_EXPORT ember_status ember_method_resize_input(ember_method* method, size_t index,
                                                    const int64_t* sizes, size_t rank);
/* Sets input `index` from a value (see ember_value below). A tensor (dtype, rank, sizes, data,
 * nbytes) is resized to `sizes` when they differ from the input's current shape, then copied.
 * An Int, Double, Bool or None must equal what was baked in at export (InvalidArgument
 * otherwise): the program has no slot to change it. */
struct ember_value;
EMBER_EXPORT ember_status ember_method_set_input_value(ember_method* method, size_t index,
                                                       const struct ember_value* value);
/* Runs the method. Inputs keep their values between executions. */
EMBER_EXPORT ember_status ember_method_execute(ember_method* method);

/* An output value. Tensor: dtype, rank, sizes, data, nbytes. Int/Double/Bool: i, d, b.
 * String: data (not NUL-terminated) and count bytes. ListInt/ListDouble/ListBool: data
 * points at count int64_t / double / bool items. Pointers alias the method's memory. */
typedef struct ember_value {
  size_t struct_size;
  ember_kind kind;
  ember_dtype dtype;
  size_t rank;
  int64_t sizes[EMBER_MAX_RANK];
  const void* data;
  size_t nbytes;
  size_t count;
  int64_t i;
  double d;
  int32_t b;
} ember_value;

EMBER_EXPORT void ember_value_init(ember_value* value);
/* Makes tensor output `index` write into the caller's `data` (at least its max_nbytes), which
 * must stay valid through execute and reads. Only for outputs the program does not
 * memory-plan (InvalidState otherwise); by default those get storage at creation. */
EMBER_EXPORT ember_status ember_method_set_output_buffer(ember_method* method, size_t index,
                                                         void* data, size_t nbytes);
/* Output `index` of the last execute. TensorList outputs are NotSupported. */
EMBER_EXPORT ember_status ember_method_output(const ember_method* method, size_t index,
                                              ember_value* value);

/* ---- Profiling -------------------------------------------------------------------------- */

/* Turns per-instruction timing on or off for later executes (see options.profiling). */
EMBER_EXPORT ember_status ember_method_set_profiling(ember_method* method, int32_t enabled);

typedef struct ember_profile_entry {
  size_t struct_size;
  const char* name; /* "aten::add.out", a backend id such as "XnnpackBackend", "move", ... */
  uint64_t calls;   /* times it ran in the last execute */
  uint64_t total_ns;
} ember_profile_entry;

EMBER_EXPORT void ember_profile_entry_init(ember_profile_entry* entry);
/* Instructions of the method, in execution order. */
EMBER_EXPORT size_t ember_method_profile_count(const ember_method* method);
/* Timing of instruction `index` in the last execute (zeros when profiling was off). */
EMBER_EXPORT ember_status ember_method_profile_entry(const ember_method* method, size_t index,
                                                     ember_profile_entry* entry);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* EMBER_EMBER_H_ */
