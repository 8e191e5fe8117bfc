#include "runtime/core/scalar_type.h"

#include <cstdint>

namespace ember::runtime {
namespace {

struct TypeInfo {
  const char* name;
  uint8_t size;
};

constexpr TypeInfo kTypes[kNumScalarTypes] = {
    {"uint8", 1},          {"int8", 1},           {"int16", 2},          {"int32", 4},
    {"int64", 8},          {"float16", 2},        {"float32", 4},        {"float64", 8},
    {"complex32", 4},      {"complex64", 8},      {"complex128", 16},    {"bool", 1},
    {"qint8", 1},          {"quint8", 1},         {"qint32", 4},         {"bfloat16", 2},
    {"quint4x2", 1},       {"quint2x4", 1},       {"bits1x8", 1},        {"bits2x4", 1},
    {"bits4x2", 1},        {"bits8", 1},          {"bits16", 2},         {"float8_e5m2", 1},
    {"float8_e4m3fn", 1},  {"float8_e5m2fnuz", 1}, {"float8_e4m3fnuz", 1}, {"uint16", 2},
    {"uint32", 4},         {"uint64", 8},
};

// element_size() (inline in the header) keeps its own copy of the sizes: they must agree.
constexpr bool sizes_agree() {
  for (int i = 0; i < kNumScalarTypes; ++i) {
    if (element_size(static_cast<ScalarType>(i)) != kTypes[i].size) return false;
  }
  return true;
}
static_assert(sizes_agree(), "element_size() disagrees with kTypes");

}  // namespace

bool is_valid(ScalarType type) {
  const int code = static_cast<int>(type);
  return code >= 0 && code < kNumScalarTypes;
}

const char* scalar_type_name(ScalarType type) {
  if (type == ScalarType::Float8_e8m0fnu) return "float8_e8m0fnu";
  if (type == ScalarType::Undefined) return "undefined";
  return is_valid(type) ? kTypes[static_cast<int>(type)].name : "invalid";
}

bool is_floating_point(ScalarType type) {
  switch (type) {
    case ScalarType::Half:
    case ScalarType::Float:
    case ScalarType::Double:
    case ScalarType::BFloat16:
    case ScalarType::Float8_e5m2:
    case ScalarType::Float8_e4m3fn:
    case ScalarType::Float8_e5m2fnuz:
    case ScalarType::Float8_e4m3fnuz:
    case ScalarType::Float8_e8m0fnu:
      return true;
    default:
      return false;
  }
}

bool is_integral(ScalarType type, bool include_bool) {
  switch (type) {
    case ScalarType::Byte:
    case ScalarType::Char:
    case ScalarType::Short:
    case ScalarType::Int:
    case ScalarType::Long:
    case ScalarType::UInt16:
    case ScalarType::UInt32:
    case ScalarType::UInt64:
      return true;
    case ScalarType::Bool:
      return include_bool;
    default:
      return false;
  }
}

bool quantized_storage_range(ScalarType type, int64_t* min, int64_t* max) {
  switch (type) {
    case ScalarType::Byte: *min = 0; *max = 255; return true;
    case ScalarType::Char: *min = -128; *max = 127; return true;
    case ScalarType::Short: *min = -32768; *max = 32767; return true;
    case ScalarType::Int: *min = INT32_MIN; *max = INT32_MAX; return true;
    default: return false;
  }
}

}  // namespace ember::runtime
