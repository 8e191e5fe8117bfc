// The JNI half of dev.ember (class dev.ember.Native): plain JNI over the C API
// (ember.h) only; no fbjni, nothing from Android's SDK. Handles travel to Java as longs.
// Every failure throws dev.ember.EmberException(status, name, message) and returns a
// neutral value; nothing aborts on bad input from Java.
#include <jni.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

#include "ember/ember.h"
#include "bindings/java/jni/jni_common.h"

namespace {

using ember::jni::throw_ember;
using ember::jni::Utf;


// True (and an exception pending) when `s` is an error.
bool failed(JNIEnv* env, ember_status s, const char* message) {
  if (s == EMBER_OK) return false;
  throw_ember(env, s, message);
  return true;
}

bool null_handle(JNIEnv* env, jlong handle, const char* what) {
  if (handle != 0) return false;
  char message[64];
  std::snprintf(message, sizeof(message), "%s is closed", what);
  throw_ember(env, EMBER_INVALID_STATE, message);
  return true;
}

ember_program* program_of(jlong h) {
  return reinterpret_cast<ember_program*>(static_cast<intptr_t>(h));
}
ember_method* method_of(jlong h) {
  return reinterpret_cast<ember_method*>(static_cast<intptr_t>(h));
}

// A String[] of `n` items, item i from get(i); null (with an exception pending) when get
// returns null or the array cannot be made.
template <typename Get>
jobjectArray string_array(JNIEnv* env, size_t n, Get get) {
  jclass string_class = env->FindClass("java/lang/String");
  jobjectArray out =
      string_class == nullptr ? nullptr : env->NewObjectArray(jsize(n), string_class, nullptr);
  for (size_t i = 0; out != nullptr && i < n; ++i) {
    const char* item = get(i);
    if (item == nullptr) return nullptr;
    env->SetObjectArrayElement(out, jsize(i), env->NewStringUTF(item));
  }
  return out;
}

jlongArray to_java(JNIEnv* env, const int64_t* values, size_t n) {
  jlongArray out = env->NewLongArray(jsize(n));
  if (out != nullptr) {
    static_assert(sizeof(jlong) == sizeof(int64_t));
    env->SetLongArrayRegion(out, 0, jsize(n), reinterpret_cast<const jlong*>(values));
  }
  return out;
}

}  // namespace

extern "C" {

JNIEXPORT jint JNICALL Java_dev_ember_Native_version(JNIEnv*, jclass) {
  return jint(ember_version());
}

JNIEXPORT jlong JNICALL Java_dev_ember_Native_loadProgram(JNIEnv* env, jclass, jstring path,
                                                          jstring data_path) {
  if (path == nullptr) {
    throw_ember(env, EMBER_INVALID_ARGUMENT, "path is null");
    return 0;
  }
  Utf p(env, path), d(env, data_path);
  ember_program_options options;
  ember_program_options_init(&options);
  options.data_path = d.get();
  ember_program* program = nullptr;
  if (failed(env, ember_program_load_file(p.get(), &options, &program), ember_last_error_message()))
    return 0;
  return jlong(reinterpret_cast<intptr_t>(program));
}

JNIEXPORT void JNICALL Java_dev_ember_Native_destroyProgram(JNIEnv*, jclass, jlong program) {
  ember_program_destroy(program_of(program));
}

JNIEXPORT jobjectArray JNICALL Java_dev_ember_Native_methodNames(JNIEnv* env, jclass,
                                                                 jlong program) {
  if (null_handle(env, program, "Module")) return nullptr;
  ember_program* p = program_of(program);
  return string_array(env, ember_program_method_count(p), [&](size_t i) -> const char* {
    const char* name = nullptr;
    return failed(env, ember_program_method_name(p, i, &name), ember_program_last_error(p))
               ? nullptr
               : name;
  });
}

JNIEXPORT jlong JNICALL Java_dev_ember_Native_createMethod(JNIEnv* env, jclass, jlong program,
                                                           jstring name, jint threads,
                                                           jstring backends, jboolean profiling,
                                                           jlong max_planned_memory_bytes) {
  if (null_handle(env, program, "Module")) return 0;
  if (name == nullptr) {
    throw_ember(env, EMBER_INVALID_ARGUMENT, "method name is null");
    return 0;
  }
  if (threads < 0) {
    throw_ember(env, EMBER_INVALID_ARGUMENT, "thread count must be >= 0");
    return 0;
  }
  Utf n(env, name), b(env, backends);
  ember_method_options options;
  ember_method_options_init(&options);
  options.num_threads = uint32_t(threads);
  options.backends = b.get();
  options.profiling = profiling ? 1 : 0;
  options.max_planned_memory_bytes = uint64_t(max_planned_memory_bytes);  // >= 0: Module.Options
  ember_method* method = nullptr;
  if (failed(env, ember_method_create(program_of(program), n.get(), &options, &method),
             ember_program_last_error(program_of(program)))) {
    return 0;
  }
  return jlong(reinterpret_cast<intptr_t>(method));
}

JNIEXPORT void JNICALL Java_dev_ember_Native_destroyMethod(JNIEnv*, jclass, jlong method) {
  ember_method_destroy(method_of(method));
}

JNIEXPORT jint JNICALL Java_dev_ember_Native_inputCount(JNIEnv*, jclass, jlong method) {
  return jint(ember_method_input_count(method_of(method)));
}

JNIEXPORT jint JNICALL Java_dev_ember_Native_outputCount(JNIEnv*, jclass, jlong method) {
  return jint(ember_method_output_count(method_of(method)));
}

// [kind, dtype, dynamic, planned, rank, sizes[rank], min[rank], max[rank]]
JNIEXPORT jlongArray JNICALL Java_dev_ember_Native_info(JNIEnv* env, jclass, jlong method,
                                                        jboolean input, jint index) {
  if (null_handle(env, method, "method")) return nullptr;
  ember_tensor_info info;
  ember_tensor_info_init(&info);
  const ember_status s = input ? ember_method_input_info(method_of(method), size_t(index), &info)
                               : ember_method_output_info(method_of(method), size_t(index), &info);
  if (index < 0 || failed(env, s, ember_method_last_error(method_of(method)))) {
    if (index < 0) throw_ember(env, EMBER_INVALID_ARGUMENT, "index is negative");
    return nullptr;
  }
  int64_t v[5 + 3 * EMBER_MAX_RANK];
  size_t k = 0;
  v[k++] = info.kind;
  v[k++] = info.dtype;
  v[k++] = info.dynamic;
  v[k++] = info.memory_planned;
  v[k++] = int64_t(info.rank);
  for (size_t d = 0; d < info.rank; ++d) v[k++] = info.sizes[d];
  for (size_t d = 0; d < info.rank; ++d) v[k++] = info.min_sizes[d];
  for (size_t d = 0; d < info.rank; ++d) v[k++] = info.max_sizes[d];
  return to_java(env, v, k);
}

// A tensor input from a direct ByteBuffer (no copy on the Java side; one copy into the
// method's memory here), resized to `shape` first when it differs.
JNIEXPORT void JNICALL Java_dev_ember_Native_setTensorInput(JNIEnv* env, jclass, jlong method,
                                                            jint index, jint dtype, jobject buffer,
                                                            jlongArray shape) {
  if (null_handle(env, method, "method")) return;
  if (index < 0) return throw_ember(env, EMBER_INVALID_ARGUMENT, "index is negative");
  if (buffer == nullptr || shape == nullptr)
    return throw_ember(env, EMBER_INVALID_ARGUMENT, "tensor data or shape is null");
  void* data = env->GetDirectBufferAddress(buffer);
  const jlong capacity = env->GetDirectBufferCapacity(buffer);
  if (data == nullptr && capacity != 0) {
    return throw_ember(env, EMBER_INVALID_ARGUMENT, "tensor data must be a direct ByteBuffer");
  }
  const jsize rank = env->GetArrayLength(shape);
  if (rank > EMBER_MAX_RANK)
    return throw_ember(env, EMBER_INVALID_ARGUMENT, "tensor rank is above 16");
  ember_value v;
  ember_value_init(&v);
  v.kind = EMBER_KIND_TENSOR;
  v.dtype = static_cast<ember_dtype>(dtype);
  v.rank = size_t(rank);
  env->GetLongArrayRegion(shape, 0, rank, reinterpret_cast<jlong*>(v.sizes));
  v.data = data;
  v.nbytes = size_t(capacity < 0 ? 0 : capacity);
  failed(env, ember_method_set_input_value(method_of(method), size_t(index), &v),
         ember_method_last_error(method_of(method)));
}

// An Int (kind 4), Double (3), Bool (5) or None (0) input: must equal the exported value.
JNIEXPORT void JNICALL Java_dev_ember_Native_setScalarInput(JNIEnv* env, jclass, jlong method,
                                                            jint index, jint kind, jlong i,
                                                            jdouble d) {
  if (null_handle(env, method, "method")) return;
  if (index < 0) return throw_ember(env, EMBER_INVALID_ARGUMENT, "index is negative");
  ember_value v;
  ember_value_init(&v);
  v.kind = static_cast<ember_kind>(kind);
  v.i = i;
  v.d = d;
  v.b = i != 0;
  failed(env, ember_method_set_input_value(method_of(method), size_t(index), &v),
         ember_method_last_error(method_of(method)));
}

JNIEXPORT void JNICALL Java_dev_ember_Native_execute(JNIEnv* env, jclass, jlong method) {
  if (null_handle(env, method, "method")) return;
  failed(env, ember_method_execute(method_of(method)), ember_method_last_error(method_of(method)));
}

// [kind, dtype, nbytes, i, bits of d, b, count, rank, sizes[rank]]
JNIEXPORT jlongArray JNICALL Java_dev_ember_Native_outputMeta(JNIEnv* env, jclass, jlong method,
                                                              jint index) {
  if (null_handle(env, method, "method")) return nullptr;
  if (index < 0) {
    throw_ember(env, EMBER_INVALID_ARGUMENT, "index is negative");
    return nullptr;
  }
  ember_value v;
  ember_value_init(&v);
  if (failed(env, ember_method_output(method_of(method), size_t(index), &v),
             ember_method_last_error(method_of(method)))) {
    return nullptr;
  }
  int64_t bits = 0;
  std::memcpy(&bits, &v.d, sizeof(bits));
  int64_t meta[8 + EMBER_MAX_RANK] = {v.kind, v.dtype, int64_t(v.nbytes), v.i,
                                      bits,   v.b,     int64_t(v.count),  int64_t(v.rank)};
  for (size_t d = 0; d < v.rank; ++d) meta[8 + d] = v.sizes[d];
  return to_java(env, meta, 8 + v.rank);
}

// Copies output `index`'s bytes (tensor data, string bytes, list items) into `buffer`.
JNIEXPORT void JNICALL Java_dev_ember_Native_copyOutput(JNIEnv* env, jclass, jlong method,
                                                        jint index, jobject buffer) {
  if (null_handle(env, method, "method")) return;
  if (index < 0) return throw_ember(env, EMBER_INVALID_ARGUMENT, "index is negative");
  ember_value v;
  ember_value_init(&v);
  if (failed(env, ember_method_output(method_of(method), size_t(index), &v),
             ember_method_last_error(method_of(method)))) {
    return;
  }
  void* dst = buffer != nullptr ? env->GetDirectBufferAddress(buffer) : nullptr;
  const jlong capacity = buffer != nullptr ? env->GetDirectBufferCapacity(buffer) : -1;
  if ((dst == nullptr && v.nbytes > 0) || capacity < jlong(v.nbytes)) {
    return throw_ember(env, EMBER_INVALID_ARGUMENT,
                       "output buffer must be a direct ByteBuffer of nbytes");
  }
  if (v.nbytes > 0) std::memcpy(dst, v.data, v.nbytes);
}

JNIEXPORT void JNICALL Java_dev_ember_Native_setProfiling(JNIEnv* env, jclass, jlong method,
                                                          jboolean on) {
  if (null_handle(env, method, "method")) return;
  failed(env, ember_method_set_profiling(method_of(method), on ? 1 : 0),
         ember_method_last_error(method_of(method)));
}

JNIEXPORT jobjectArray JNICALL Java_dev_ember_Native_profileNames(JNIEnv* env, jclass,
                                                                  jlong method) {
  if (null_handle(env, method, "method")) return nullptr;
  ember_method* m = method_of(method);
  return string_array(env, ember_method_profile_count(m), [&](size_t i) -> const char* {
    ember_profile_entry e;
    ember_profile_entry_init(&e);
    return failed(env, ember_method_profile_entry(m, i, &e), ember_method_last_error(m)) ? nullptr
                                                                                         : e.name;
  });
}

// [calls0, ns0, calls1, ns1, ...] of the last execute.
JNIEXPORT jlongArray JNICALL Java_dev_ember_Native_profileTimes(JNIEnv* env, jclass, jlong method) {
  if (null_handle(env, method, "method")) return nullptr;
  const size_t n = ember_method_profile_count(method_of(method));
  jlongArray out = env->NewLongArray(jsize(2 * n));
  for (size_t i = 0; out != nullptr && i < n; ++i) {
    ember_profile_entry e;
    ember_profile_entry_init(&e);
    if (failed(env, ember_method_profile_entry(method_of(method), i, &e),
               ember_method_last_error(method_of(method)))) {
      return nullptr;
    }
    const jlong pair[2] = {jlong(e.calls), jlong(e.total_ns)};
    env->SetLongArrayRegion(out, jsize(2 * i), 2, pair);
  }
  return out;
}

}  // extern "C"
