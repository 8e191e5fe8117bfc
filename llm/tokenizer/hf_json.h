// Type-checked reads of a tokenizer.json's fields with nlohmann-json, without exceptions: the
// file is untrusted, so every access checks the type first and a wrong one becomes
// InvalidExternalData naming the field.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "runtime/core/diagnostics.h"
#include "runtime/core/error.h"

namespace ember::llm::hf_json {

using Json = nlohmann::json;
using runtime::Error;

inline Error bad(const char* what, const std::string& name) {
  return runtime::fail(Error::InvalidExternalData, "tokenizer.json: %s '%s'", what, name.c_str());
}

// The member `key` of `obj`, or nullptr when absent or null.
inline const Json* member(const Json& obj, const char* key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return nullptr;
  return &*it;
}

inline Error get_string(const Json& obj, const char* key, std::string* out, bool required) {
  const Json* v = member(obj, key);
  if (v == nullptr) return required ? bad("missing string field", key) : Error::Ok;
  if (!v->is_string()) return bad("field is not a string:", key);
  *out = v->get_ref<const std::string&>();
  return Error::Ok;
}

inline Error get_bool(const Json& obj, const char* key, bool* out) {
  const Json* v = member(obj, key);
  if (v == nullptr) return Error::Ok;
  if (!v->is_boolean()) return bad("field is not a boolean:", key);
  *out = v->get<bool>();
  return Error::Ok;
}

inline Error get_int(const Json& obj, const char* key, int64_t* out, bool required) {
  const Json* v = member(obj, key);
  if (v == nullptr) return required ? bad("missing integer field", key) : Error::Ok;
  if (!v->is_number_integer()) return bad("field is not an integer:", key);
  *out = v->get<int64_t>();
  return Error::Ok;
}

// The "type" of a component object (normalizer, pre_tokenizer, decoder, ...).
inline Error get_type(const Json& obj, const char* component, std::string* out) {
  if (!obj.is_object()) return bad("component is not an object:", component);
  return get_string(obj, "type", out, true);
}

}  // namespace ember::llm::hf_json
