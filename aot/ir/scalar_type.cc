// Short names and the torch.export serializer code mapping of ScalarType.
#include "aot/ir/scalar_type.h"

#include <string>

namespace ember::aot {
namespace {

struct TypeInfo {
  ScalarType type;
  const char* short_name;
  int pt2_code;  // torch.export serializer code, 0 if none
};

constexpr TypeInfo kTypes[] = {
    {ScalarType::Byte, "u8", 1},
    {ScalarType::Char, "i8", 2},
    {ScalarType::Short, "i16", 3},
    {ScalarType::Int, "i32", 4},
    {ScalarType::Long, "i64", 5},
    {ScalarType::Half, "f16", 6},
    {ScalarType::Float, "f32", 7},
    {ScalarType::Double, "f64", 8},
    {ScalarType::ComplexHalf, "c32", 9},
    {ScalarType::ComplexFloat, "c64", 10},
    {ScalarType::ComplexDouble, "c128", 11},
    {ScalarType::Bool, "bool", 12},
    {ScalarType::QInt8, "qi8", 0},
    {ScalarType::QUInt8, "qu8", 0},
    {ScalarType::QInt32, "qi32", 0},
    {ScalarType::BFloat16, "bf16", 13},
    {ScalarType::UInt16, "u16", 28},
    {ScalarType::Float8_e4m3fn, "f8e4m3fn", 29},
    {ScalarType::Float8_e5m2, "f8e5m2", 30},
    {ScalarType::Float8_e4m3fnuz, "f8e4m3fnuz", 31},
    {ScalarType::Float8_e5m2fnuz, "f8e5m2fnuz", 32},
    {ScalarType::Float8_e8m0fnu, "f8e8m0fnu", 33},
    {ScalarType::UInt32, "u32", 34},
    {ScalarType::UInt64, "u64", 35},
};

const TypeInfo* find(ScalarType t) {
  for (const TypeInfo& info : kTypes) {
    if (info.type == t) return &info;
  }
  return nullptr;
}

}  // namespace

const char* to_string(ScalarType t) {
  const TypeInfo* info = find(t);
  return info ? info->short_name : "undefined";
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
