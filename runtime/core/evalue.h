// EValue: one slot of a method's value table, as in the .pte. It holds None, an
// Int, Double, Bool, String, a Tensor, or a list (Int, Double, Bool, Tensor,
// optional Tensor). It owns nothing: tensors, strings and list storage live in
// the method allocator or the program; an EValue is a tagged pointer-sized view
// and is cheap to copy (MoveCall copies EValues).
//
// Int lists are "boxed": their items are pointers to Int EValues (so symbolic
// ints computed at run time are seen), unboxed into scratch on each get().
// Tensor lists are also views of EValues. Tag values are ExecuTorch's.
#pragma once

#include <cstdint>
#include <string_view>

#include "runtime/core/scalar.h"
#include "runtime/core/span.h"
#include "runtime/core/tensor.h"

namespace ember::runtime {

enum class Tag : uint32_t {
  None = 0,
  Tensor = 1,
  String = 2,
  Double = 3,
  Int = 4,
  Bool = 5,
  ListBool = 6,
  ListDouble = 7,
  ListInt = 8,
  ListTensor = 9,
  ListScalar = 10,
  ListOptionalTensor = 11,
};

// "Tensor", "Int", "ListInt", ...
const char* tag_name(Tag tag);

class EValue;

// A list of int64 whose items are Int EValues. `scratch` has room for size() items.
class BoxedIntList final {
 public:
  BoxedIntList() = default;
  BoxedIntList(EValue* const* items, int64_t* scratch, size_t size)
      : items_(items), scratch_(scratch), size_(size) {}
  size_t size() const { return size_; }
  // Unboxes the current values into scratch and returns them.
  Span<const int64_t> get() const;

 private:
  EValue* const* items_ = nullptr;
  int64_t* scratch_ = nullptr;
  size_t size_ = 0;
};

// A list of tensors, each the Tensor of an EValue.
class TensorList final {
 public:
  TensorList() = default;
  TensorList(EValue* const* items, size_t size) : items_(items), size_(size) {}
  size_t size() const { return size_; }
  Tensor& operator[](size_t i) const;

 private:
  EValue* const* items_ = nullptr;
  size_t size_ = 0;
};

// A list of optional tensors: a null item (or a None EValue) is None.
class OptionalTensorList final {
 public:
  OptionalTensorList() = default;
  OptionalTensorList(EValue* const* items, size_t size) : items_(items), size_(size) {}
  size_t size() const { return size_; }
  // The tensor at i, or nullptr for None.
  Tensor* get(size_t i) const;

 private:
  EValue* const* items_ = nullptr;
  size_t size_ = 0;
};

class EValue final {
 public:
  EValue() : tag_(Tag::None) { payload_.as_int = 0; }
  explicit EValue(int64_t v) : tag_(Tag::Int) { payload_.as_int = v; }
  explicit EValue(double v) : tag_(Tag::Double) { payload_.as_double = v; }
  explicit EValue(bool v) : tag_(Tag::Bool) { payload_.as_bool = v; }
  explicit EValue(Tensor* t) : tag_(Tag::Tensor) { payload_.as_tensor = t; }
  explicit EValue(std::string_view s) : tag_(Tag::String) { payload_.as_string = s; }
  explicit EValue(BoxedIntList l) : tag_(Tag::ListInt) { payload_.as_int_list = l; }
  explicit EValue(Span<const double> l) : tag_(Tag::ListDouble) { payload_.as_double_list = l; }
  explicit EValue(Span<const bool> l) : tag_(Tag::ListBool) { payload_.as_bool_list = l; }
  explicit EValue(TensorList l) : tag_(Tag::ListTensor) { payload_.as_tensor_list = l; }
  explicit EValue(OptionalTensorList l) : tag_(Tag::ListOptionalTensor) {
    payload_.as_optional_tensor_list = l;
  }

  Tag tag() const { return tag_; }
  bool is_none() const { return tag_ == Tag::None; }
  bool is_int() const { return tag_ == Tag::Int; }
  bool is_double() const { return tag_ == Tag::Double; }
  bool is_bool() const { return tag_ == Tag::Bool; }
  bool is_string() const { return tag_ == Tag::String; }
  bool is_tensor() const { return tag_ == Tag::Tensor; }
  bool is_int_list() const { return tag_ == Tag::ListInt; }
  bool is_double_list() const { return tag_ == Tag::ListDouble; }
  bool is_bool_list() const { return tag_ == Tag::ListBool; }
  bool is_tensor_list() const { return tag_ == Tag::ListTensor; }
  bool is_optional_tensor_list() const { return tag_ == Tag::ListOptionalTensor; }
  bool is_scalar() const { return is_int() || is_double() || is_bool(); }

  // Accessors: the caller checks the tag first (trusted API); a mismatch is a
  // programming error and aborts through the platform hook.
  int64_t to_int() const { return check(Tag::Int).payload_.as_int; }
  double to_double() const { return check(Tag::Double).payload_.as_double; }
  bool to_bool() const { return check(Tag::Bool).payload_.as_bool; }
  std::string_view to_string() const { return check(Tag::String).payload_.as_string; }
  Tensor& to_tensor() const { return *check(Tag::Tensor).payload_.as_tensor; }
  Tensor* tensor_ptr() const { return is_tensor() ? payload_.as_tensor : nullptr; }
  Span<const int64_t> to_int_list() const { return check(Tag::ListInt).payload_.as_int_list.get(); }
  Span<const double> to_double_list() const {
    return check(Tag::ListDouble).payload_.as_double_list;
  }
  Span<const bool> to_bool_list() const { return check(Tag::ListBool).payload_.as_bool_list; }
  TensorList to_tensor_list() const { return check(Tag::ListTensor).payload_.as_tensor_list; }
  OptionalTensorList to_optional_tensor_list() const {
    return check(Tag::ListOptionalTensor).payload_.as_optional_tensor_list;
  }
  // Int, Double or Bool as a Scalar.
  Scalar to_scalar() const;
  // None -> nullptr, Tensor -> the tensor.
  Tensor* to_optional_tensor() const { return is_none() ? nullptr : &to_tensor(); }

 private:
  // Inline: boxed kernels check every argument on every call; the failure is out of line.
  const EValue& check(Tag expected) const {
    if (tag_ != expected) [[unlikely]] check_failed(expected);
    return *this;
  }
  [[noreturn]] void check_failed(Tag expected) const;

  Tag tag_;
  union Payload {
    Payload() : as_int(0) {}
    int64_t as_int;
    double as_double;
    bool as_bool;
    Tensor* as_tensor;
    std::string_view as_string;
    BoxedIntList as_int_list;
    Span<const double> as_double_list;
    Span<const bool> as_bool_list;
    TensorList as_tensor_list;
    OptionalTensorList as_optional_tensor_list;
  } payload_;
};

}  // namespace ember::runtime
