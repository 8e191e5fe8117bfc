// Scalar: a number argument of an ATen op (`Scalar alpha`), holding an int64,
// a double or a bool as the program gave it. Kernels convert it to their
// compute type with to<T>().
#pragma once

#include <cstdint>

namespace ember::runtime {

class Scalar final {
 public:
  enum class Kind : uint8_t { Int, Double, Bool };

  Scalar() : kind_(Kind::Int), int_(0) {}
  Scalar(int64_t v) : kind_(Kind::Int), int_(v) {}    // NOLINT
  Scalar(double v) : kind_(Kind::Double), double_(v) {}  // NOLINT
  Scalar(bool v) : kind_(Kind::Bool), bool_(v) {}      // NOLINT

  Kind kind() const { return kind_; }
  bool is_integral() const { return kind_ == Kind::Int; }
  bool is_floating_point() const { return kind_ == Kind::Double; }
  bool is_boolean() const { return kind_ == Kind::Bool; }

  int64_t to_int() const {
    return kind_ == Kind::Int ? int_ : kind_ == Kind::Double ? int64_t(double_) : int64_t(bool_);
  }
  double to_double() const {
    return kind_ == Kind::Double ? double_ : kind_ == Kind::Int ? double(int_) : double(bool_);
  }
  bool to_bool() const {
    return kind_ == Kind::Bool ? bool_ : kind_ == Kind::Int ? int_ != 0 : double_ != 0.0;
  }
  template <typename T>
  T to() const {
    return kind_ == Kind::Double ? static_cast<T>(double_)
           : kind_ == Kind::Int  ? static_cast<T>(int_)
                                 : static_cast<T>(bool_);
  }

 private:
  Kind kind_;
  union {
    int64_t int_;
    double double_;
    bool bool_;
  };
};

}  // namespace ember::runtime
