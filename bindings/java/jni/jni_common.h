// What both JNI libraries (ember_jni.cc for dev.ember.Module, ember_llm_jni.cc for
// dev.ember.LlmModule) need from JNI: throwing dev.ember.EmberException(status, name,
// message) for a C API status, and a Java string as UTF-8 for the length of a scope.
#pragma once

#include <jni.h>

#include "ember/ember.h"

namespace ember::jni {

// Throws EmberException(status, ember_status_name(status), message).
inline void throw_ember(JNIEnv* env, ember_status status, const char* message) {
  jclass cls = env->FindClass("dev/ember/EmberException");
  if (cls == nullptr) return;  // NoClassDefFoundError is pending
  jmethodID ctor = env->GetMethodID(cls, "<init>", "(ILjava/lang/String;Ljava/lang/String;)V");
  if (ctor == nullptr) return;
  jstring name = env->NewStringUTF(ember_status_name(status));
  jstring text = env->NewStringUTF(message != nullptr ? message : "");
  auto* e = static_cast<jthrowable>(env->NewObject(cls, ctor, jint(status), name, text));
  if (e != nullptr) env->Throw(e);
}

// A Java string as UTF-8 for the length of a scope (null for a null string).
class Utf {
 public:
  Utf(JNIEnv* env, jstring s)
      : env_(env), s_(s), chars_(s ? env->GetStringUTFChars(s, nullptr) : nullptr) {}
  ~Utf() {
    if (chars_ != nullptr) env_->ReleaseStringUTFChars(s_, chars_);
  }
  Utf(const Utf&) = delete;
  Utf& operator=(const Utf&) = delete;
  const char* get() const { return chars_; }

 private:
  JNIEnv* env_;
  jstring s_;
  const char* chars_;
};

}  // namespace ember::jni
