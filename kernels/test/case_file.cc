// Parser for kernel case files; see case_file.h and cases/FORMAT.md. Every read is bounds
// checked, every count is checked against the bytes left before anything is allocated, and
// tensor byte counts are checked against dtype and sizes.
#include "kernels/test/case_file.h"

#include <cstdio>
#include <cstring>
#include <limits>
#include <utility>

namespace ember::kernels::testing {
namespace {

constexpr char kMagic[8] = {'E', 'M', 'B', 'R', 'C', 'A', 'S', 'E'};
constexpr uint32_t kCaseFlagExpectError = 1;
constexpr uint8_t kArgFlagOut = 1;
constexpr uint8_t kArgFlagMutated = 2;

// Little-endian cursor over the file bytes. After the first failure every read fails and
// error() keeps the first message.
class ByteReader {
 public:
  ByteReader(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  size_t offset() const { return pos_; }
  size_t remaining() const { return size_ - pos_; }
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }

  void fail(const std::string& what) {
    if (error_.empty()) error_ = "offset " + std::to_string(pos_) + ": " + what;
  }

  bool bytes(void* dst, size_t n, const char* what) {
    if (!ok()) return false;
    if (n > remaining()) {
      fail(std::string("truncated ") + what + ": need " + std::to_string(n) + " byte(s), " +
           std::to_string(remaining()) + " left");
      return false;
    }
    if (n != 0) std::memcpy(dst, data_ + pos_, n);
    pos_ += n;
    return true;
  }

  template <typename T>
  T scalar(const char* what) {
    uint8_t raw[sizeof(T)] = {};
    T value{};
    if (!bytes(raw, sizeof(T), what)) return value;
    // Assemble little-endian bytes into an unsigned integer, then reinterpret.
    uint64_t bits = 0;
    for (size_t i = 0; i < sizeof(T); ++i) bits |= static_cast<uint64_t>(raw[i]) << (8 * i);
    if constexpr (sizeof(T) == 8) {
      std::memcpy(&value, &bits, 8);
    } else if constexpr (sizeof(T) == 4) {
      const uint32_t b32 = static_cast<uint32_t>(bits);
      std::memcpy(&value, &b32, 4);
    } else {
      const uint8_t b8 = static_cast<uint8_t>(bits);
      std::memcpy(&value, &b8, 1);
    }
    return value;
  }

  std::string str(const char* what) {
    const uint32_t n = scalar<uint32_t>(what);
    std::string s;
    if (!ok()) return s;
    if (n > remaining()) {
      fail(std::string(what) + ": string length " + std::to_string(n) + " exceeds the " +
           std::to_string(remaining()) + " byte(s) left");
      return s;
    }
    s.assign(reinterpret_cast<const char*>(data_ + pos_), n);
    pos_ += n;
    return s;
  }

  // Reads a u32 element count and checks that n elements of at least min_bytes each fit.
  uint32_t count(const char* what, size_t min_bytes) {
    const uint32_t n = scalar<uint32_t>(what);
    if (ok() && min_bytes != 0 && n > remaining() / min_bytes) {
      fail(std::string(what) + " " + std::to_string(n) + " cannot fit in the " +
           std::to_string(remaining()) + " byte(s) left");
      return 0;
    }
    return ok() ? n : 0;
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
  std::string error_;
};

// Reads ndim sizes and the dim order of a tensor; sets *numel (and *overflow if it overflows).
bool parse_layout(ByteReader& r, uint8_t ndim, TensorData* t, uint64_t* numel, bool* overflow) {
  t->sizes.assign(ndim, 0);
  *numel = 1;
  *overflow = false;
  for (uint8_t i = 0; i < ndim; ++i) {
    const int64_t s = r.scalar<int64_t>("tensor size");
    if (!r.ok()) return false;
    if (s < 0) {
      r.fail("tensor size " + std::to_string(i) + " is negative (" + std::to_string(s) + ")");
      return false;
    }
    t->sizes[i] = s;
    if (s != 0 && *numel > std::numeric_limits<uint64_t>::max() / static_cast<uint64_t>(s)) {
      *overflow = true;
    }
    *numel *= static_cast<uint64_t>(s);
  }
  t->dim_order.assign(ndim, 0);
  uint32_t seen = 0;
  for (uint8_t i = 0; i < ndim; ++i) {
    const uint8_t d = r.scalar<uint8_t>("tensor dim_order");
    if (!r.ok()) return false;
    if (d >= ndim || (seen & (1u << d)) != 0) {
      r.fail("dim_order is not a permutation of 0.." + std::to_string(ndim - 1) +
             " (entry " + std::to_string(i) + " is " + std::to_string(d) + ")");
      return false;
    }
    seen |= 1u << d;
    t->dim_order[i] = d;
  }
  return true;
}

bool parse_tensor(ByteReader& r, bool is_out, TensorData* t) {
  const uint8_t dtype = r.scalar<uint8_t>("tensor dtype");
  const uint8_t ndim = r.scalar<uint8_t>("tensor ndim");
  if (!r.ok()) return false;
  const size_t elem = case_dtype_size(dtype);
  if (elem == 0) {
    r.fail("unknown tensor dtype code " + std::to_string(dtype) +
           " (expected one of 0-7, 11, 15)");
    return false;
  }
  if (ndim > kMaxCaseTensorDims) {
    r.fail("tensor ndim " + std::to_string(ndim) + " exceeds the limit of " +
           std::to_string(kMaxCaseTensorDims));
    return false;
  }
  t->dtype = static_cast<ScalarType>(dtype);
  uint64_t numel = 0;
  bool overflow = false;
  if (!parse_layout(r, ndim, t, &numel, &overflow)) return false;
  const uint64_t nbytes = r.scalar<uint64_t>("tensor nbytes");
  if (!r.ok()) return false;
  if (overflow || numel > std::numeric_limits<uint64_t>::max() / elem) {
    r.fail("tensor byte size overflows");
    return false;
  }
  const uint64_t want = numel * elem;
  if (is_out && nbytes == 0) {
    // Out arguments carry no data; bound the zero fill (1 GiB).
    if (want > (uint64_t{1} << 30)) {
      r.fail("out tensor of " + std::to_string(want) + " bytes is larger than 1 GiB");
      return false;
    }
    t->data.assign(static_cast<size_t>(want), 0);
    return true;
  }
  if (nbytes != want) {
    r.fail("tensor nbytes " + std::to_string(nbytes) + " does not match " + std::to_string(numel) +
           " element(s) of " + runtime::scalar_type_name(t->dtype) + " (" + std::to_string(want) + ")");
    return false;
  }
  if (nbytes > r.remaining()) {
    r.fail("truncated tensor data: need " + std::to_string(nbytes) + " byte(s), " +
           std::to_string(r.remaining()) + " left");
    return false;
  }
  t->data.resize(static_cast<size_t>(nbytes));
  return r.bytes(t->data.data(), t->data.size(), "tensor data");
}

// Payloads of the list kinds (IntList, DoubleList, BoolList, TensorList, OptionalTensorList).
void parse_list_value(ByteReader& r, CaseArg* a) {
  switch (a->kind) {
    case ArgKind::IntList: {
      const uint32_t n = r.count("int list length", 8);
      for (uint32_t i = 0; i < n && r.ok(); ++i) a->int_list.push_back(r.scalar<int64_t>("int"));
      break;
    }
    case ArgKind::DoubleList: {
      const uint32_t n = r.count("double list length", 8);
      for (uint32_t i = 0; i < n && r.ok(); ++i) {
        a->double_list.push_back(r.scalar<double>("double"));
      }
      break;
    }
    case ArgKind::BoolList: {
      const uint32_t n = r.count("bool list length", 1);
      for (uint32_t i = 0; i < n && r.ok(); ++i) {
        a->bool_list.push_back(r.scalar<uint8_t>("bool") != 0 ? 1 : 0);
      }
      break;
    }
    case ArgKind::TensorList: {
      const uint32_t n = r.count("tensor list length", 10);
      a->tensor_list.resize(n);
      for (uint32_t i = 0; i < n && r.ok(); ++i) parse_tensor(r, a->is_out, &a->tensor_list[i]);
      break;
    }
    case ArgKind::OptionalTensorList: {
      const uint32_t n = r.count("optional tensor list length", 1);
      for (uint32_t i = 0; i < n && r.ok(); ++i) {
        const uint8_t present = r.scalar<uint8_t>("optional tensor presence");
        if (!r.ok()) break;
        if (present > 1) {
          r.fail("optional tensor presence byte is " + std::to_string(present) +
                 " (expected 0 or 1)");
          break;
        }
        if (present == 0) {
          a->optional_tensor_list.emplace_back(std::nullopt);
        } else {
          TensorData t;
          if (parse_tensor(r, false, &t)) a->optional_tensor_list.emplace_back(std::move(t));
        }
      }
      break;
    }
    default:
      break;
  }
}

bool parse_arg_value(ByteReader& r, CaseArg* a) {
  const uint8_t kind = r.scalar<uint8_t>("argument kind");
  if (!r.ok()) return false;
  if (kind > static_cast<uint8_t>(ArgKind::MemoryFormat)) {
    r.fail("argument '" + a->name + "': unknown kind " + std::to_string(kind) +
           " (expected 0-12)");
    return false;
  }
  a->kind = static_cast<ArgKind>(kind);
  switch (a->kind) {
    case ArgKind::Tensor:
      return parse_tensor(r, a->is_out, &a->tensor);
    case ArgKind::Int:
      a->int_value = r.scalar<int64_t>("int value");
      break;
    case ArgKind::Double:
      a->double_value = r.scalar<double>("double value");
      break;
    case ArgKind::Bool:
      a->bool_value = r.scalar<uint8_t>("bool value") != 0;
      break;
    case ArgKind::OptionalNone:
      break;
    case ArgKind::ScalarType: {
      const uint8_t code = r.scalar<uint8_t>("scalar type");
      if (r.ok() && case_dtype_size(code) == 0) {
        r.fail("argument '" + a->name + "': unknown ScalarType code " + std::to_string(code));
      }
      a->scalar_type = static_cast<ScalarType>(code);
      break;
    }
    case ArgKind::String:
      a->string_value = r.str("string value");
      break;
    case ArgKind::MemoryFormat:
      a->memory_format = r.scalar<uint8_t>("memory format");
      if (r.ok() && a->memory_format > 3) {
        r.fail("argument '" + a->name + "': unknown memory format " +
               std::to_string(a->memory_format));
      }
      break;
    default:
      parse_list_value(r, a);
      break;
  }
  return r.ok();
}

bool parse_case(ByteReader& r, Case* c) {
  c->name = r.str("case name");
  const uint32_t flags = r.scalar<uint32_t>("case flags");
  c->atol = r.scalar<double>("atol");
  c->rtol = r.scalar<double>("rtol");
  if (!r.ok()) return false;
  if ((flags & ~kCaseFlagExpectError) != 0) {
    r.fail("case '" + c->name + "': unknown flag bits " + std::to_string(flags));
    return false;
  }
  c->expect_error = (flags & kCaseFlagExpectError) != 0;
  if (!(c->atol >= 0.0) || !(c->rtol >= 0.0)) {
    r.fail("case '" + c->name + "': tolerance must be non-negative");
    return false;
  }
  const uint32_t num_args = r.count("argument count", 10);
  c->args.resize(num_args);
  for (uint32_t i = 0; i < num_args && r.ok(); ++i) {
    CaseArg& a = c->args[i];
    a.name = r.str("argument name");
    a.schema_type = r.str("argument schema type");
    const uint8_t arg_flags = r.scalar<uint8_t>("argument flags");
    if (!r.ok()) return false;
    if ((arg_flags & ~(kArgFlagOut | kArgFlagMutated)) != 0 ||
        arg_flags == (kArgFlagOut | kArgFlagMutated)) {
      r.fail("argument '" + a.name + "': unknown flag bits " + std::to_string(arg_flags));
      return false;
    }
    a.is_out = (arg_flags & kArgFlagOut) != 0;
    a.is_mutated = (arg_flags & kArgFlagMutated) != 0;
    parse_arg_value(r, &a);
  }
  const uint32_t num_outputs = r.count("output count", 10);
  c->outputs.resize(num_outputs);
  for (uint32_t i = 0; i < num_outputs && r.ok(); ++i) parse_tensor(r, false, &c->outputs[i]);
  if (!r.ok()) return false;
  const size_t want = c->expect_error ? 0 : c->num_expected_outputs();
  if (c->outputs.size() != want) {
    r.fail("case '" + c->name + "': " + std::to_string(c->outputs.size()) +
           " expected output(s) but " + std::to_string(want) + " out/mutated tensor(s)");
    return false;
  }
  return true;
}

}  // namespace

int64_t TensorData::numel() const {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return n;
}

std::vector<int64_t> TensorData::strides() const {
  std::vector<int64_t> st(sizes.size(), 1);
  int64_t step = 1;
  for (size_t i = dim_order.size(); i-- > 0;) {
    st[dim_order[i]] = step;
    step *= sizes[dim_order[i]];
  }
  return st;
}

bool TensorData::is_contiguous_order() const {
  for (size_t i = 0; i < dim_order.size(); ++i) {
    if (dim_order[i] != i) return false;
  }
  return true;
}

size_t Case::num_out_tensors() const {
  size_t n = 0;
  for (const CaseArg& a : args) {
    if (!a.is_out) continue;
    if (a.kind == ArgKind::Tensor) ++n;
    if (a.kind == ArgKind::TensorList) n += a.tensor_list.size();
  }
  return n;
}

size_t Case::num_expected_outputs() const {
  size_t n = num_out_tensors();
  for (const CaseArg& a : args) {
    if (a.is_mutated && a.kind == ArgKind::Tensor) ++n;
  }
  return n;
}

const CaseArg* Case::find_arg(const std::string& arg_name) const {
  for (const CaseArg& a : args) {
    if (a.name == arg_name) return &a;
  }
  return nullptr;
}

size_t case_dtype_size(uint8_t code) {
  switch (code) {
    case 0: case 1: case 11: return 1;
    case 2: case 5: case 15: return 2;
    case 3: case 6: return 4;
    case 4: case 7: case 9: return 8;  // 9: complex64, (real, imaginary) float32
    default: return 0;
  }
}

const char* arg_kind_name(ArgKind kind) {
  static const char* const kNames[] = {
      "Tensor", "Int", "Double", "Bool", "IntList", "DoubleList", "BoolList", "OptionalNone",
      "TensorList", "OptionalTensorList", "ScalarType", "String", "MemoryFormat"};
  const auto i = static_cast<size_t>(kind);
  return i < sizeof(kNames) / sizeof(kNames[0]) ? kNames[i] : "unknown";
}

std::string case_file_name(const std::string& op_key) {
  std::string name = op_key;
  const size_t sep = name.find("::");
  if (sep != std::string::npos) name.replace(sep, 2, "__");
  return name + ".case";
}

std::string parse_case_file(const uint8_t* data, size_t size, CaseFile* out) {
  ByteReader r(data, size);
  char magic[8] = {};
  if (!r.bytes(magic, sizeof(magic), "magic")) return "case file: " + r.error();
  if (std::memcmp(magic, kMagic, sizeof(kMagic)) != 0) {
    return "case file: bad magic (expected \"EMBRCASE\")";
  }
  CaseFile file;
  file.version = r.scalar<uint32_t>("version");
  if (r.ok() && file.version != kCaseFileVersion) {
    return "case file: version " + std::to_string(file.version) + " is not supported (expected " +
           std::to_string(kCaseFileVersion) + ")";
  }
  file.op_key = r.str("op key");
  file.torch_version = r.str("torch version");
  const uint32_t num_cases = r.count("case count", 32);
  file.cases.resize(num_cases);
  for (uint32_t i = 0; i < num_cases && r.ok(); ++i) {
    if (!parse_case(r, &file.cases[i])) {
      return "case file " + file.op_key + ", case " + std::to_string(i) + ": " + r.error();
    }
  }
  if (!r.ok()) return "case file " + file.op_key + ": " + r.error();
  if (r.remaining() != 0) {
    return "case file " + file.op_key + ": " + std::to_string(r.remaining()) +
           " trailing byte(s) after the last case";
  }
  *out = std::move(file);
  return std::string();
}

std::string read_case_file(const std::string& path, CaseFile* out) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return "cannot open case file " + path;
  std::vector<uint8_t> bytes;
  uint8_t buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0) bytes.insert(bytes.end(), buf, buf + n);
  const bool read_ok = std::ferror(f) == 0;
  std::fclose(f);
  if (!read_ok) return "cannot read case file " + path;
  std::string err = parse_case_file(bytes.data(), bytes.size(), out);
  return err.empty() ? err : path + ": " + err;
}

}  // namespace ember::kernels::testing
