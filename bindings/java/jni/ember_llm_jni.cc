// The JNI half of dev.ember.LlmModule (class dev.ember.LlmNative): plain JNI over the LLM C API
// (ember_llm.h) only. Handles travel to Java as longs; every failure throws
// dev.ember.EmberException(status, name, message) and returns a neutral value. Generated text
// reaches Java as UTF-8 bytes (LlmNative.Sink.onBytes), since JNI's NewStringUTF reads modified
// UTF-8 and would garble characters outside the BMP (emoji).
#include <jni.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "ember/ember_llm.h"
#include "bindings/java/jni/jni_common.h"

namespace {

using ember::jni::throw_ember;
using ember::jni::Utf;


bool failed(JNIEnv* env, ember_status s) {
  if (s == EMBER_OK) return false;
  throw_ember(env, s, ember_last_error_message());
  return true;
}

ember_llm* llm_of(jlong h) { return reinterpret_cast<ember_llm*>(static_cast<intptr_t>(h)); }
jlong handle_of(ember_llm* llm) { return jlong(reinterpret_cast<intptr_t>(llm)); }

jintArray to_java(JNIEnv* env, const std::vector<int32_t>& values) {
  jintArray out = env->NewIntArray(jsize(values.size()));
  if (out != nullptr && !values.empty()) {
    static_assert(sizeof(jint) == sizeof(int32_t), "jint is 32 bits");
    env->SetIntArrayRegion(out, 0, jsize(values.size()), reinterpret_cast<const jint*>(values.data()));
  }
  return out;
}

// The text callback: passes each piece to sink.onBytes(byte[]); an exception in Java stops
// the generation and stays pending.
struct SinkCall {
  JNIEnv* env;
  jobject sink;
  jmethodID on_bytes;
};

int32_t to_sink(const char* text, size_t size, void* user_data) {
  auto* call = static_cast<SinkCall*>(user_data);
  JNIEnv* env = call->env;
  if (call->sink == nullptr) return 1;
  jbyteArray bytes = env->NewByteArray(jsize(size));
  if (bytes == nullptr) return 0;
  env->SetByteArrayRegion(bytes, 0, jsize(size), reinterpret_cast<const jbyte*>(text));
  const jboolean go = env->CallBooleanMethod(call->sink, call->on_bytes, bytes);
  env->DeleteLocalRef(bytes);
  return env->ExceptionCheck() ? 0 : (go ? 1 : 0);
}

}  // namespace

extern "C" {

JNIEXPORT jlong JNICALL Java_dev_ember_LlmNative_load(JNIEnv* env, jclass, jstring model,
                                                      jstring tokenizer) {
  if (model == nullptr) {
    throw_ember(env, EMBER_INVALID_ARGUMENT, "modelPath is null");
    return 0;
  }
  Utf m(env, model), t(env, tokenizer);
  ember_llm* llm = nullptr;
  if (failed(env, ember_llm_load(m.get(), t.get(), &llm))) return 0;
  return handle_of(llm);
}

JNIEXPORT void JNICALL Java_dev_ember_LlmNative_destroy(JNIEnv*, jclass, jlong h) {
  ember_llm_destroy(llm_of(h));
}

JNIEXPORT jintArray JNICALL Java_dev_ember_LlmNative_generate(JNIEnv* env, jclass, jlong h,
                                                              jboolean continued, jstring text,
                                                              jintArray ids, jlongArray ints,
                                                              jfloatArray floats, jobject sink) {
  jlong i[3];
  jfloat f[4];
  if (env->GetArrayLength(ints) != 3 || env->GetArrayLength(floats) != 4) {
    throw_ember(env, EMBER_INVALID_ARGUMENT, "bad config arrays");
    return nullptr;
  }
  env->GetLongArrayRegion(ints, 0, 3, i);
  env->GetFloatArrayRegion(floats, 0, 4, f);
  ember_llm_config config;
  ember_llm_config_init(&config);
  config.max_new_tokens = int32_t(i[0]);
  config.top_k = int32_t(i[1]);
  config.seed = uint64_t(i[2]);
  config.temperature = f[0];
  config.top_p = f[1];
  config.min_p = f[2];
  config.repetition_penalty = f[3];
  std::vector<int32_t> prompt;
  if (ids != nullptr) {
    prompt.resize(size_t(env->GetArrayLength(ids)));
    if (!prompt.empty()) {
      env->GetIntArrayRegion(ids, 0, jsize(prompt.size()), reinterpret_cast<jint*>(prompt.data()));
    }
  }
  SinkCall call{env, sink, nullptr};
  if (sink != nullptr) {
    jclass cls = env->GetObjectClass(sink);
    call.on_bytes = cls == nullptr ? nullptr : env->GetMethodID(cls, "onBytes", "([B)Z");
    if (call.on_bytes == nullptr) return nullptr;  // NoSuchMethodError is pending
  }
  Utf t(env, text);
  ember_llm* llm = llm_of(h);
  ember_status s;
  if (continued) {
    s = ember_llm_continue(llm, t.get(), ids != nullptr ? prompt.data() : nullptr, prompt.size(),
                           &config, to_sink, &call, nullptr);
  } else {
    if (text == nullptr && ids == nullptr) {
      throw_ember(env, EMBER_INVALID_ARGUMENT, "a prompt (text or ids) is required");
      return nullptr;
    }
    s = ember_llm_generate(llm, t.get(), ids != nullptr ? prompt.data() : nullptr, prompt.size(),
                           &config, to_sink, &call, nullptr);
  }
  if (env->ExceptionCheck()) return nullptr;  // thrown by the callback
  if (failed(env, s)) return nullptr;
  std::vector<int32_t> out(ember_llm_generated_tokens(llm, nullptr, 0));
  ember_llm_generated_tokens(llm, out.data(), out.size());
  return to_java(env, out);
}

JNIEXPORT void JNICALL Java_dev_ember_LlmNative_reset(JNIEnv* env, jclass, jlong h) {
  failed(env, ember_llm_reset(llm_of(h)));
}

JNIEXPORT void JNICALL Java_dev_ember_LlmNative_rewind(JNIEnv* env, jclass, jlong h, jint pos) {
  failed(env, ember_llm_rewind(llm_of(h), pos));
}

JNIEXPORT jintArray JNICALL Java_dev_ember_LlmNative_sessionTokens(JNIEnv* env, jclass, jlong h) {
  std::vector<int32_t> out(ember_llm_session_tokens(llm_of(h), nullptr, 0));
  ember_llm_session_tokens(llm_of(h), out.data(), out.size());
  return to_java(env, out);
}

JNIEXPORT jlong JNICALL Java_dev_ember_LlmNative_newSession(JNIEnv* env, jclass, jlong h,
                                                            jboolean fork) {
  ember_llm* out = nullptr;
  const ember_status s = fork ? ember_llm_fork(llm_of(h), &out) : ember_llm_new_session(llm_of(h), &out);
  return failed(env, s) ? 0 : handle_of(out);
}

JNIEXPORT void JNICALL Java_dev_ember_LlmNative_saveSession(JNIEnv* env, jclass, jlong h,
                                                            jstring path) {
  Utf p(env, path);
  failed(env, ember_llm_save_session(llm_of(h), p.get()));
}

JNIEXPORT void JNICALL Java_dev_ember_LlmNative_loadSession(JNIEnv* env, jclass, jlong h,
                                                            jstring path) {
  Utf p(env, path);
  failed(env, ember_llm_load_session(llm_of(h), p.get()));
}

JNIEXPORT jdoubleArray JNICALL Java_dev_ember_LlmNative_stats(JNIEnv* env, jclass, jlong h) {
  ember_llm_stats s;
  if (failed(env, ember_llm_get_stats(llm_of(h), &s))) return nullptr;
  const jdouble v[10] = {double(s.prompt_tokens), double(s.prefill_evaluated),
                         double(s.prefill_reused), double(s.generated_tokens),
                         double(s.decode_steps),  double(s.position),
                         double(s.context_length), s.prefill_ms,
                         s.decode_ms,              s.time_to_first_token_ms};
  jdoubleArray out = env->NewDoubleArray(10);
  if (out != nullptr) env->SetDoubleArrayRegion(out, 0, 10, v);
  return out;
}

JNIEXPORT jlongArray JNICALL Java_dev_ember_LlmNative_estimateMemory(JNIEnv* env, jclass,
                                                                     jstring path) {
  Utf p(env, path);
  ember_llm_memory m;
  if (failed(env, ember_llm_estimate_memory(p.get(), &m))) return nullptr;
  const jlong v[8] = {jlong(m.file_bytes),     jlong(m.planned_bytes), jlong(m.kv_cache_bytes),
                      jlong(m.temp_bytes),     jlong(m.total_bytes),   jlong(m.context_length),
                      jlong(m.max_seq_len),    jlong(m.vocab_size)};
  jlongArray out = env->NewLongArray(8);
  if (out != nullptr) env->SetLongArrayRegion(out, 0, 8, v);
  return out;
}

}  // extern "C"
