// Strict pickle subset for torch.save streams (see torch_pickle.h).
#include "aot/frontend/torch_pickle.h"

#include <cstdio>
#include <cstring>
#include <unordered_map>

namespace ember::aot {
namespace {

using Kind = PickleValue::Kind;
constexpr size_t kMaxObjects = size_t{1} << 24;
constexpr size_t kMaxStack = size_t{1} << 20;

struct StorageClass {
  const char* name;
  ScalarType dtype;
};
constexpr StorageClass kStorageClasses[] = {
    {"torch.FloatStorage", ScalarType::Float},
    {"torch.DoubleStorage", ScalarType::Double},
    {"torch.HalfStorage", ScalarType::Half},
    {"torch.BFloat16Storage", ScalarType::BFloat16},
    {"torch.LongStorage", ScalarType::Long},
    {"torch.IntStorage", ScalarType::Int},
    {"torch.ShortStorage", ScalarType::Short},
    {"torch.CharStorage", ScalarType::Char},
    {"torch.ByteStorage", ScalarType::Byte},
    {"torch.BoolStorage", ScalarType::Bool},
    {"torch.ComplexFloatStorage", ScalarType::ComplexFloat},
    {"torch.ComplexDoubleStorage", ScalarType::ComplexDouble},
};

class Unpickler {
 public:
  Unpickler(const uint8_t* data, size_t size, const std::string& what)
      : p_(data), end_(data + size), what_(what), result_(new PickleResult()) {}

  Result<std::unique_ptr<PickleResult>> run() {
    while (true) {
      if (p_ >= end_) return error("stream ends without STOP (truncated?)");
      uint8_t op = *p_++;
      if (op == '.') break;
      EMBER_TRY(step(op));
      if (stack_.size() > kMaxStack) return error("stack too deep");
    }
    if (stack_.size() != 1) {
      return error("STOP with " + std::to_string(stack_.size()) + " items on the stack");
    }
    result_->root = stack_.back();
    return std::move(result_);
  }

 private:
  Error error(const std::string& m) const {
    return invalid_data(what_ + ": pickle offset " + std::to_string(offset()) + ": " + m);
  }
  size_t offset() const { return static_cast<size_t>(p_ - begin_ptr()); }
  const uint8_t* begin_ptr() const { return end_ - total(); }
  size_t total() const { return total_; }

  Result<PickleValue*> make(Kind kind) {
    if (result_->arena.size() >= kMaxObjects) return error("too many objects");
    result_->arena.emplace_back(new PickleValue());
    result_->arena.back()->kind = kind;
    return result_->arena.back().get();
  }
  Error push_new(Kind kind, PickleValue** out = nullptr) {
    EMBER_ASSIGN_OR_RETURN(PickleValue * v, make(kind));
    stack_.push_back(v);
    if (out) *out = v;
    return Error::Ok;
  }
  Error need(size_t n) const {
    if (static_cast<size_t>(end_ - p_) < n) return error("truncated operand");
    return Error::Ok;
  }
  template <typename T>
  Error read_le(T* out) {
    EMBER_TRY(need(sizeof(T)));
    T v = 0;
    for (size_t i = 0; i < sizeof(T); ++i) v |= static_cast<T>(static_cast<T>(p_[i]) << (8 * i));
    p_ += sizeof(T);
    *out = v;
    return Error::Ok;
  }
  Error read_bytes(size_t n, std::string* out) {
    EMBER_TRY(need(n));
    out->assign(reinterpret_cast<const char*>(p_), n);
    p_ += n;
    return Error::Ok;
  }
  Error read_line(std::string* out) {
    const uint8_t* nl =
        static_cast<const uint8_t*>(std::memchr(p_, '\n', static_cast<size_t>(end_ - p_)));
    if (nl == nullptr) return error("unterminated GLOBAL line");
    out->assign(reinterpret_cast<const char*>(p_), static_cast<size_t>(nl - p_));
    p_ = nl + 1;
    return Error::Ok;
  }
  Result<PickleValue*> pop() {
    if (stack_.empty() || (!marks_.empty() && stack_.size() <= marks_.back())) {
      return error("pop from an empty stack");
    }
    PickleValue* v = stack_.back();
    stack_.pop_back();
    return v;
  }
  Error pop_mark(std::vector<PickleValue*>* items) {
    if (marks_.empty()) return error("no MARK on the stack");
    size_t m = marks_.back();
    marks_.pop_back();
    items->assign(stack_.begin() + static_cast<std::ptrdiff_t>(m), stack_.end());
    stack_.resize(m);
    return Error::Ok;
  }
  Error make_tuple(size_t n) {
    if (stack_.size() < n || (!marks_.empty() && stack_.size() - n < marks_.back())) {
      return error("TUPLE" + std::to_string(n) + " with too few items");
    }
    EMBER_ASSIGN_OR_RETURN(PickleValue * t, make(Kind::Tuple));
    t->items.assign(stack_.end() - static_cast<std::ptrdiff_t>(n), stack_.end());
    stack_.resize(stack_.size() - n);
    stack_.push_back(t);
    return Error::Ok;
  }
  Error memo_put(uint64_t key) {
    if (stack_.empty()) return error("memo PUT with an empty stack");
    memo_[key] = stack_.back();
    return Error::Ok;
  }
  Error memo_get(uint64_t key) {
    auto it = memo_.find(key);
    if (it == memo_.end()) return error("memo GET of unknown key " + std::to_string(key));
    stack_.push_back(it->second);
    return Error::Ok;
  }
  Error set_items(PickleValue* dict, const std::vector<PickleValue*>& kv) {
    if (dict->kind != Kind::Dict) return error("SETITEM(S) on a non-dict");
    if (kv.size() % 2 != 0) return error("SETITEMS with an odd number of items");
    for (size_t i = 0; i < kv.size(); i += 2) dict->dict.emplace_back(kv[i], kv[i + 1]);
    return Error::Ok;
  }

  Error step(uint8_t op);
  Error step_literal(uint8_t op, bool* handled);
  Error step_object(uint8_t op, bool* handled);
  Error reduce();
  Error persistent_load();
  Error rebuild_tensor(const PickleValue& args);

  const uint8_t* p_;
  const uint8_t* end_;
  size_t total_ = static_cast<size_t>(end_ - p_);
  std::string what_;
  std::unique_ptr<PickleResult> result_;
  std::vector<PickleValue*> stack_;
  std::vector<size_t> marks_;
  std::unordered_map<uint64_t, PickleValue*> memo_;
};

// Numbers and strings. Sets *handled = false for other opcodes.
Error Unpickler::step_literal(uint8_t op, bool* handled) {
  PickleValue* v = nullptr;
  switch (op) {
    case 'K': {
      uint8_t x;
      EMBER_TRY(read_le(&x));
      EMBER_TRY(push_new(Kind::Int, &v));
      v->i = x;
      return Error::Ok;
    }
    case 'M': {
      uint16_t x;
      EMBER_TRY(read_le(&x));
      EMBER_TRY(push_new(Kind::Int, &v));
      v->i = x;
      return Error::Ok;
    }
    case 'J': {
      uint32_t x;
      EMBER_TRY(read_le(&x));
      EMBER_TRY(push_new(Kind::Int, &v));
      v->i = static_cast<int32_t>(x);
      return Error::Ok;
    }
    case 0x8a: {  // LONG1: little-endian two's complement of n bytes
      uint8_t n;
      EMBER_TRY(read_le(&n));
      if (n > 8) return error("LONG1 of " + std::to_string(n) + " bytes does not fit in int64");
      EMBER_TRY(need(n));
      uint64_t x = 0;
      for (uint8_t i = 0; i < n; ++i) x |= static_cast<uint64_t>(p_[i]) << (8 * i);
      if (n > 0 && n < 8 && (p_[n - 1] & 0x80)) x |= ~uint64_t{0} << (8 * n);
      p_ += n;
      EMBER_TRY(push_new(Kind::Int, &v));
      v->i = static_cast<int64_t>(x);
      return Error::Ok;
    }
    case 'G': {  // BINFLOAT: big-endian double
      EMBER_TRY(need(8));
      uint64_t bits = 0;
      for (int i = 0; i < 8; ++i) bits = (bits << 8) | p_[i];
      p_ += 8;
      EMBER_TRY(push_new(Kind::Float, &v));
      std::memcpy(&v->f, &bits, sizeof(bits));
      return Error::Ok;
    }
    case 'X':
    case 0x8c:
    case 'B':
    case 'C': {
      uint32_t n = 0;
      if (op == 'X' || op == 'B') {
        EMBER_TRY(read_le(&n));
      } else {
        uint8_t n8;
        EMBER_TRY(read_le(&n8));
        n = n8;
      }
      EMBER_TRY(
          push_new(op == 'X' || op == 0x8c ? Kind::String : Kind::Bytes, &v));
      return read_bytes(n, &v->s);
    }
    default:
      *handled = false;
      return Error::Ok;
  }
}

// Memo, globals, calls and container mutation. Sets *handled = false for others.
Error Unpickler::step_object(uint8_t op, bool* handled) {
  PickleValue* v = nullptr;
  switch (op) {
    case 'q': {
      uint8_t k;
      EMBER_TRY(read_le(&k));
      return memo_put(k);
    }
    case 'r': {
      uint32_t k;
      EMBER_TRY(read_le(&k));
      return memo_put(k);
    }
    case 0x94:
      return memo_put(memo_.size());  // MEMOIZE
    case 'h': {
      uint8_t k;
      EMBER_TRY(read_le(&k));
      return memo_get(k);
    }
    case 'j': {
      uint32_t k;
      EMBER_TRY(read_le(&k));
      return memo_get(k);
    }
    case 'c': {
      std::string module, name;
      EMBER_TRY(read_line(&module));
      EMBER_TRY(read_line(&name));
      EMBER_TRY(push_new(Kind::Global, &v));
      v->s = module + "." + name;
      return Error::Ok;
    }
    case 0x93: {  // STACK_GLOBAL
      EMBER_ASSIGN_OR_RETURN(PickleValue * name, pop());
      EMBER_ASSIGN_OR_RETURN(PickleValue * module, pop());
      if (name->kind != Kind::String || module->kind != Kind::String) {
        return error("STACK_GLOBAL expects two strings");
      }
      EMBER_TRY(push_new(Kind::Global, &v));
      v->s = module->s + "." + name->s;
      return Error::Ok;
    }
    case 'R':
      return reduce();
    case 'Q':
      return persistent_load();
    case 's': {
      EMBER_ASSIGN_OR_RETURN(PickleValue * value, pop());
      EMBER_ASSIGN_OR_RETURN(PickleValue * key, pop());
      if (stack_.empty()) return error("SETITEM without a dict");
      return set_items(stack_.back(), {key, value});
    }
    case 'u': {
      std::vector<PickleValue*> kv;
      EMBER_TRY(pop_mark(&kv));
      if (stack_.empty()) return error("SETITEMS without a dict");
      return set_items(stack_.back(), kv);
    }
    case 'a':
    case 'e': {
      std::vector<PickleValue*> items;
      if (op == 'a') {
        EMBER_ASSIGN_OR_RETURN(PickleValue * item, pop());
        items.push_back(item);
      } else {
        EMBER_TRY(pop_mark(&items));
      }
      if (stack_.empty() || stack_.back()->kind != Kind::List)
        return error("APPEND(S) on a non-list");
      stack_.back()->items.insert(stack_.back()->items.end(), items.begin(), items.end());
      return Error::Ok;
    }
    default:
      *handled = false;
      return Error::Ok;
  }
}

Error Unpickler::step(uint8_t op) {
  PickleValue* v = nullptr;
  switch (op) {
    case 0x80: {  // PROTO
      uint8_t proto;
      EMBER_TRY(read_le(&proto));
      if (proto < 2 || proto > 5)
        return error("unsupported pickle protocol " + std::to_string(proto));
      return Error::Ok;
    }
    case 0x95: {  // FRAME: the length prefix carries no meaning for us
      uint64_t n;
      return read_le(&n);
    }
    case '(':
      marks_.push_back(stack_.size());
      return Error::Ok;
    case '}':
      return push_new(Kind::Dict);
    case ']':
      return push_new(Kind::List);
    case ')':
      return push_new(Kind::Tuple);
    case 'N':
      return push_new(Kind::None);
    case 0x88:
    case 0x89:
      EMBER_TRY(push_new(Kind::Bool, &v));
      v->i = op == 0x88;
      return Error::Ok;
    case 't': {
      std::vector<PickleValue*> items;
      EMBER_TRY(pop_mark(&items));
      EMBER_TRY(push_new(Kind::Tuple, &v));
      v->items.assign(items.begin(), items.end());
      return Error::Ok;
    }
    case 0x85:
      return make_tuple(1);
    case 0x86:
      return make_tuple(2);
    case 0x87:
      return make_tuple(3);
    default:
      break;
  }
  bool handled = true;
  Error s = step_literal(op, &handled);
  if (handled) return s;
  handled = true;
  s = step_object(op, &handled);
  if (handled) return s;
  char hex[8];
  std::snprintf(hex, sizeof(hex), "0x%02x", op);
  return fail(Error::NotSupported,
                what_ + ": pickle offset " + std::to_string(offset() - 1) + ": opcode " + hex +
                    " is outside the torch.save subset this reader supports");
}

Error Unpickler::persistent_load() {
  EMBER_ASSIGN_OR_RETURN(PickleValue * pid, pop());
  // ('storage', <storage class>, '<key>', '<location>', <numel>)
  if (pid->kind != Kind::Tuple || pid->items.size() != 5 || pid->items[0]->kind != Kind::String ||
      pid->items[0]->s != "storage" || pid->items[1]->kind != Kind::Global ||
      pid->items[2]->kind != Kind::String || pid->items[4]->kind != Kind::Int) {
    return error("persistent id is not ('storage', class, key, location, numel)");
  }
  EMBER_ASSIGN_OR_RETURN(ScalarType dtype, storage_class_dtype(pid->items[1]->s));
  if (pid->items[4]->i < 0) return error("negative storage size");
  PickleValue* v = nullptr;
  EMBER_TRY(push_new(Kind::Storage, &v));
  v->dtype = dtype;
  v->s = pid->items[2]->s;
  v->i = pid->items[4]->i;
  return Error::Ok;
}

Error int_tuple(const PickleValue& t, const char* what, std::vector<int64_t>* out) {
  if (t.kind != Kind::Tuple) return invalid_data(std::string(what) + " is not a tuple");
  for (const PickleValue* x : t.items) {
    if (x->kind != Kind::Int) return invalid_data(std::string(what) + " holds a non-integer");
    out->push_back(x->i);
  }
  return Error::Ok;
}

Error Unpickler::rebuild_tensor(const PickleValue& args) {
  if (args.items.size() < 6 || args.items[0]->kind != Kind::Storage ||
      args.items[1]->kind != Kind::Int) {
    return error(
        "_rebuild_tensor_v2 expects (storage, offset, size, stride, requires_grad, hooks)");
  }
  PickleValue* t = nullptr;
  EMBER_TRY(push_new(Kind::Tensor, &t));
  t->items = {args.items[0]};
  t->dtype = args.items[0]->dtype;
  t->storage_offset = args.items[1]->i;
  Error s = int_tuple(*args.items[2], "tensor size", &t->sizes);
  if (s == Error::Ok) s = int_tuple(*args.items[3], "tensor stride", &t->strides);
  if (s != Error::Ok) return error(std::string(last_error_message()));
  if (t->sizes.size() != t->strides.size()) return error("tensor size and stride ranks differ");
  return Error::Ok;
}

Error Unpickler::reduce() {
  EMBER_ASSIGN_OR_RETURN(PickleValue * args, pop());
  EMBER_ASSIGN_OR_RETURN(PickleValue * fn, pop());
  if (fn->kind != Kind::Global) return error("REDUCE of a non-global callable");
  if (args->kind != Kind::Tuple) return error("REDUCE arguments are not a tuple");
  const std::string& name = fn->s;
  if (name == "torch._utils._rebuild_tensor_v2") return rebuild_tensor(*args);
  if (name == "torch._utils._rebuild_parameter" ||
      name == "torch._utils._rebuild_parameter_with_state") {
    if (args->items.empty() || args->items[0]->kind != Kind::Tensor) {
      return error(name + " expects a tensor first");
    }
    stack_.push_back(const_cast<PickleValue*>(args->items[0]));
    return Error::Ok;
  }
  if (name == "collections.OrderedDict") {
    if (!args->items.empty()) return error("OrderedDict with constructor arguments");
    return push_new(Kind::Dict);
  }
  return fail(Error::NotSupported,
                what_ + ": pickle calls " + name +
                    ", which is outside the torch.save subset "
                    "this reader supports (tensor subclasses and custom objects are not)");
}

}  // namespace

Result<ScalarType> storage_class_dtype(const std::string& qualified_name) {
  for (const StorageClass& c : kStorageClasses) {
    if (qualified_name == c.name) return c.dtype;
  }
  return fail(Error::NotSupported, "storage class " + qualified_name + " is not supported");
}

Result<std::unique_ptr<PickleResult>> unpickle(const uint8_t* data, size_t size,
                                                 const std::string& what) {
  return Unpickler(data, size, what).run();
}

}  // namespace ember::aot
