// Result<T>: either a value of type T or a non-Ok Error. It cannot hold Error::Ok
// (constructing one from Ok yields Error::Internal). Move-only, [[nodiscard]].
// Accessing the value of an error result is a programming error: it aborts
// through the platform hook (the API is trusted; see docs/error_handling.md).
#pragma once

#include <new>
#include <type_traits>
#include <utility>

#include "runtime/core/error.h"
#include "runtime/platform/log.h"

namespace ember::runtime {

template <typename T>
class [[nodiscard]] Result final {
 public:
  Result(const T& value) : has_value_(true) { new (&value_) T(value); }  // NOLINT
  Result(T&& value) : has_value_(true) { new (&value_) T(std::move(value)); }  // NOLINT
  Result(Error error)  // NOLINT
      : error_(error == Error::Ok ? Error::Internal : error), has_value_(false) {}

  Result(Result&& other) noexcept : has_value_(other.has_value_) {
    if (has_value_) {
      new (&value_) T(std::move(other.value_));
    } else {
      error_ = other.error_;
    }
  }
  Result(const Result&) = delete;
  Result& operator=(const Result&) = delete;
  Result& operator=(Result&&) = delete;

  ~Result() {
    if (has_value_) value_.~T();
  }

  bool ok() const { return has_value_; }
  // Error::Ok when a value is present.
  Error error() const { return has_value_ ? Error::Ok : error_; }

  T& get() {
    check();
    return value_;
  }
  const T& get() const {
    check();
    return value_;
  }
  T& operator*() { return get(); }
  const T& operator*() const { return get(); }
  T* operator->() { return &get(); }
  const T* operator->() const { return &get(); }

 private:
  void check() const {
    if (!has_value_) {
      EMBER_LOG(Fatal, "Result accessed with error %s", error_name(error_));
      ember_pal_abort();
    }
  }

  union {
    T value_;
    Error error_;
  };
  bool has_value_;
};

}  // namespace ember::runtime

// Evaluates `expr` (a Result<T>); on error returns it, else moves the value into `lhs`.
#define EMBER_ASSIGN_OR_RETURN(lhs, expr) \
  EMBER_ASSIGN_OR_RETURN_IMPL_(EMBER_CONCAT_(ember_result_, __LINE__), lhs, expr)
#define EMBER_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                 \
  if (!tmp.ok()) return tmp.error();                 \
  lhs = std::move(tmp.get())
#define EMBER_CONCAT_(a, b) EMBER_CONCAT_INNER_(a, b)
#define EMBER_CONCAT_INNER_(a, b) a##b
