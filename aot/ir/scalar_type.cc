// Sizes, names and the torch.export serializer code mapping of ScalarType.
#include "aot/ir/scalar_type.h"

#include <string>

namespace ember::aot {
namespace {

struct TypeInfo {
  ScalarType type;
  size_t size;
  const char* short_name;
  const char* torch_name;
  int pt2_code;  // torch.export serializer code, 0 if none
};

constexpr TypeInfo kTypes[] = {
    {ScalarType::kByte, 1, "u8", "uint8", 1},
    {ScalarType::kChar, 1, "i8", "int8", 2},
    {ScalarType::kShort, 2, "i16", "int16", 3},
    {ScalarType::kInt, 4, "i32", "int32", 4},
    {ScalarType::kLong, 8, "i64", "int64", 5},
    {ScalarType::kHalf, 2, "f16", "float16", 6},
    {ScalarType::kFloat, 4, "f32", "float32", 7},
    {ScalarType::kDouble, 8, "f64", "float64", 8},
    {ScalarType::kComplexHalf, 4, "c32", "complex32", 9},
    {ScalarType::kComplexFloat, 8, "c64", "complex64", 10},
    {ScalarType::kComplexDouble, 16, "c128", "complex128", 11},
    {ScalarType::kBool, 1, "bool", "bool", 12},
    {ScalarType::kQInt8, 1, "qi8", "qint8", 0},
    {ScalarType::kQUInt8, 1, "qu8", "quint8", 0},
    {ScalarType::kQInt32, 4, "qi32", "qint32", 0},
    {ScalarType::kBFloat16, 2, "bf16", "bfloat16", 13},
    {ScalarType::kUInt16, 2, "u16", "uint16", 28},
    {ScalarType::kFloat8e4m3fn, 1, "f8e4m3fn", "float8_e4m3fn", 29},
    {ScalarType::kFloat8e5m2, 1, "f8e5m2", "float8_e5m2", 30},
    {ScalarType::kFloat8e4m3fnuz, 1, "f8e4m3fnuz", "float8_e4m3fnuz", 31},
    {ScalarType::kFloat8e5m2fnuz, 1, "f8e5m2fnuz", "float8_e5m2fnuz", 32},
    {ScalarType::kFloat8e8m0fnu, 1, "f8e8m0fnu", "float8_e8m0fnu", 33},
    {ScalarType::kUInt32, 4, "u32", "uint32", 34},
    {ScalarType::kUInt64, 8, "u64", "uint64", 35},
};

const TypeInfo* find(ScalarType t) {
  for (const TypeInfo& info : kTypes) {
    if (info.type == t) return &info;
  }
  return nullptr;
}

}  // namespace

size_t element_size(ScalarType t) {
  const TypeInfo* info = find(t);
  return info ? info->size : 0;
}

const char* to_string(ScalarType t) {
  const TypeInfo* info = find(t);
  return info ? info->short_name : "undefined";
}

const char* torch_name(ScalarType t) {
  const TypeInfo* info = find(t);
  return info ? info->torch_name : "undefined";
}

Result<ScalarType> pt2_scalar_type(int64_t serializer_code) {
  for (const TypeInfo& info : kTypes) {
    if (info.pt2_code != 0 && info.pt2_code == serializer_code) return info.type;
  }
  return fail(Error::InvalidType, "unknown torch.export dtype code " +
                                              std::to_string(serializer_code) +
                                              " (expected 1..13 or 28..35)");
}

}  // namespace ember::aot
