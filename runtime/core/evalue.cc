#include "runtime/core/evalue.h"

#include "runtime/platform/log.h"

namespace ember::runtime {

const char* tag_name(Tag tag) {
  switch (tag) {
    case Tag::None: return "None";
    case Tag::Tensor: return "Tensor";
    case Tag::String: return "String";
    case Tag::Double: return "Double";
    case Tag::Int: return "Int";
    case Tag::Bool: return "Bool";
    case Tag::ListBool: return "ListBool";
    case Tag::ListDouble: return "ListDouble";
    case Tag::ListInt: return "ListInt";
    case Tag::ListTensor: return "ListTensor";
    case Tag::ListScalar: return "ListScalar";
    case Tag::ListOptionalTensor: return "ListOptionalTensor";
  }
  return "Unknown";
}

Span<const int64_t> BoxedIntList::get() const {
  for (size_t i = 0; i < size_; ++i) scratch_[i] = items_[i]->to_int();
  return {scratch_, size_};
}

Tensor& TensorList::operator[](size_t i) const { return items_[i]->to_tensor(); }

Tensor* OptionalTensorList::get(size_t i) const {
  const EValue* item = items_[i];
  return item == nullptr || item->is_none() ? nullptr : &item->to_tensor();
}

Scalar EValue::to_scalar() const {
  switch (tag_) {
    case Tag::Int: return Scalar(payload_.as_int);
    case Tag::Double: return Scalar(payload_.as_double);
    case Tag::Bool: return Scalar(payload_.as_bool);
    default: check(Tag::Double); return Scalar();
  }
}

void EValue::check_failed(Tag expected) const {
  EMBER_LOG(Fatal, "EValue holds %s, accessed as %s", tag_name(tag_), tag_name(expected));
  ember_pal_abort();
}

}  // namespace ember::runtime
