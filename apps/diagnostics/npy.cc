// npy (see npy.h).
#include "apps/diagnostics/npy.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "apps/common/atomic_file.h"
#include "runtime/core/diagnostics.h"
#include "runtime/core/half.h"
#include "runtime/core/tensor.h"
#include "runtime/loader/file_data_loader.h"

namespace ember::runtime {
namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;

struct DescrEntry {
  const char* code;  // without the byte-order character
  ScalarType dtype;
};
constexpr DescrEntry kDescrs[] = {
    {"f4", ScalarType::Float},  {"f8", ScalarType::Double}, {"f2", ScalarType::Half},
    {"i8", ScalarType::Long},   {"i4", ScalarType::Int},    {"i2", ScalarType::Short},
    {"i1", ScalarType::Char},   {"u1", ScalarType::Byte},   {"b1", ScalarType::Bool},
    {"u2", ScalarType::UInt16}, {"u4", ScalarType::UInt32}, {"u8", ScalarType::UInt64},
};

// A cursor over the header dict text.
class HeaderParser {
 public:
  HeaderParser(const char* text, size_t size, const char* what) : p_(text), end_(text + size), what_(what) {}

  Error parse(NpyHeader* out) {
    bool have_descr = false, have_fortran = false, have_shape = false;
    skip_space();
    if (!eat('{')) return bad("the header is not a dict ('{' expected)");
    while (true) {
      skip_space();
      if (eat('}')) break;
      std::string key;
      EMBER_TRY(quoted(&key));
      skip_space();
      if (!eat(':')) return bad("':' expected after key '%s'", printable(key).c_str());
      skip_space();
      if (key == "descr") {
        if (have_descr) return bad("key 'descr' appears twice");
        have_descr = true;
        std::string descr;
        EMBER_TRY(quoted(&descr));
        EMBER_TRY(map_descr(descr, &out->dtype));
      } else if (key == "fortran_order") {
        if (have_fortran) return bad("key 'fortran_order' appears twice");
        have_fortran = true;
        if (word("True")) {
          return fail(Error::NotSupported, "npy %s: fortran_order True (column-major) is not supported; save "
                      "a C-order array (numpy.ascontiguousarray)", what_);
        }
        if (!word("False")) return bad("fortran_order must be True or False");
      } else if (key == "shape") {
        if (have_shape) return bad("key 'shape' appears twice");
        have_shape = true;
        EMBER_TRY(shape(&out->shape));
      } else {
        return bad("unexpected key '%s' (only descr, fortran_order and shape)", printable(key).c_str());
      }
      skip_space();
      if (eat(',')) continue;
      skip_space();
      if (eat('}')) break;
      return bad("',' or '}' expected after the value of '%s'", key.c_str());
    }
    if (!have_descr || !have_fortran || !have_shape) {
      return bad("missing key '%s'", !have_descr ? "descr" : !have_fortran ? "fortran_order" : "shape");
    }
    skip_space();
    if (p_ != end_) return bad("unexpected text after the dict");
    return Error::Ok;
  }

 private:
  Error bad(const char* format, ...) __attribute__((format(printf, 2, 3))) {
    char message[256];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof(message), format, args);
    va_end(args);
    return fail(Error::InvalidArgument, "npy %s: malformed header: %s", what_, message);
  }

  static std::string printable(const std::string& s) {
    std::string out;
    for (char c : s.substr(0, 40)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
    return out;
  }

  void skip_space() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\n' || *p_ == '\r')) ++p_;
  }
  bool eat(char c) {
    if (p_ == end_ || *p_ != c) return false;
    ++p_;
    return true;
  }
  bool word(const char* w) {
    const size_t n = strlen(w);
    if (size_t(end_ - p_) < n || memcmp(p_, w, n) != 0) return false;
    p_ += n;
    return true;
  }

  Error quoted(std::string* out) {
    if (p_ == end_ || (*p_ != '\'' && *p_ != '"')) return bad("a quoted string expected");
    const char q = *p_++;
    while (p_ != end_ && *p_ != q) {
      if (*p_ == '\\' || out->size() >= 64) return bad("unsupported string");
      out->push_back(*p_++);
    }
    if (!eat(q)) return bad("unterminated string");
    return Error::Ok;
  }

  Error shape(std::vector<int32_t>* out) {
    if (!eat('(')) return bad("shape must be a tuple");
    while (true) {
      skip_space();
      if (eat(')')) return Error::Ok;
      if (p_ == end_ || *p_ < '0' || *p_ > '9') return bad("shape entries must be non-negative integers");
      int64_t v = 0;
      while (p_ != end_ && *p_ >= '0' && *p_ <= '9') {
        v = v * 10 + (*p_++ - '0');
        if (v > INT32_MAX) return fail(Error::NotSupported, "npy %s: a dimension is larger than %d", what_, INT32_MAX);
      }
      if (p_ != end_ && *p_ == 'L') ++p_;  // Python 2 longs
      if (out->size() == kMaxTensorDims) {
        return fail(Error::NotSupported, "npy %s: more than %zu dimensions", what_, kMaxTensorDims);
      }
      out->push_back(int32_t(v));
      skip_space();
      if (eat(',')) continue;
      skip_space();
      if (eat(')')) return Error::Ok;
      return bad("',' or ')' expected in shape");
    }
  }

  Error map_descr(const std::string& descr, ScalarType* out) {
    if (descr.size() < 2) return bad("descr '%s' is not a simple dtype", printable(descr).c_str());
    const char order = descr[0];
    const std::string code = descr.substr(1);
    for (const DescrEntry& e : kDescrs) {
      if (code != e.code) continue;
      const bool one_byte = element_size(e.dtype) == 1;
      if (order == '>' && !one_byte) {
        return fail(Error::NotSupported, "npy %s: big-endian dtype '%s' is not supported; save it little-endian "
                    "(array.astype('<%s'))", what_, descr.c_str(), e.code);
      }
      if (order != '<' && order != '|' && order != '=' && !(order == '>' && one_byte)) {
        return bad("descr '%s' has no byte order", printable(descr).c_str());
      }
      *out = e.dtype;
      return Error::Ok;
    }
    return fail(Error::NotSupported, "npy %s: dtype '%s' is not supported (float16/32/64, int8/16/32/64, "
                "uint8/16/32/64, bool)", what_, printable(descr).c_str());
  }

  const char* p_;
  const char* end_;
  const char* what_;
};

uint32_t read_le(const uint8_t* p, size_t n) {
  uint32_t v = 0;
  for (size_t i = 0; i < n; ++i) v |= uint32_t(p[i]) << (8 * i);
  return v;
}

}  // namespace

Result<NpyHeader> parse_npy(const uint8_t* data, size_t size, const char* what) {
  if (size < kMagicSize + 2 || memcmp(data, kMagic, kMagicSize) != 0) {
    return fail(Error::InvalidArgument, "npy %s: not a .npy file (no \\x93NUMPY magic)", what);
  }
  const uint8_t major = data[6];
  if (major < 1 || major > 3) {
    return fail(Error::NotSupported, "npy %s: format version %u.%u is not supported (1.0, 2.0, 3.0)", what,
                unsigned(major), unsigned(data[7]));
  }
  const size_t len_size = major == 1 ? 2 : 4;
  if (size < kMagicSize + 2 + len_size) return fail(Error::InvalidArgument, "npy %s: truncated header", what);
  const size_t header_len = read_le(data + 8, len_size);
  const size_t header_start = kMagicSize + 2 + len_size;
  if (header_len > kMaxNpyHeader) {
    return fail(Error::InvalidArgument, "npy %s: header of %zu bytes is larger than %zu", what, header_len,
                kMaxNpyHeader);
  }
  if (header_len > size - header_start) {
    return fail(Error::InvalidArgument, "npy %s: header of %zu bytes runs past the end of the %zu-byte file", what,
                header_len, size);
  }
  NpyHeader out;
  HeaderParser parser(reinterpret_cast<const char*>(data + header_start), header_len, what);
  EMBER_TRY(parser.parse(&out));
  size_t numel = 0;
  if (!Tensor::compute_numel(Span<const int32_t>(out.shape.data(), out.shape.size()), &numel)) {
    return fail(Error::InvalidArgument, "npy %s: the shape's element count overflows", what);
  }
  const size_t elem = element_size(out.dtype);
  if (numel > SIZE_MAX / elem) return fail(Error::InvalidArgument, "npy %s: the shape's byte size overflows", what);
  out.data_offset = header_start + header_len;
  out.data_size = numel * elem;
  const size_t have = size - out.data_offset;
  if (have != out.data_size) {
    return fail(Error::InvalidArgument, "npy %s: the header promises %zu elements (%zu bytes), the file holds %zu "
                "data bytes", what, numel, out.data_size, have);
  }
  return out;
}

Result<NpyArray> read_npy(const std::string& path) {
  Result<FileDataLoader> file = FileDataLoader::from(path.c_str());
  if (!file.ok()) return file.error();
  NpyArray out;
  out.bytes.assign(*file->size(), 0);
  if (!out.bytes.empty()) EMBER_TRY(file->load_into(0, out.bytes.size(), SegmentInfo{}, out.bytes.data()));
  const std::string what = "'" + path + "'";
  Result<NpyHeader> header = parse_npy(out.bytes.data(), out.bytes.size(), what.c_str());
  if (!header.ok()) return header.error();
  out.header = std::move(*header);
  return out;
}

const char* npy_descr(ScalarType dtype) {
  switch (dtype) {
    case ScalarType::Float: return "<f4";
    case ScalarType::Double: return "<f8";
    case ScalarType::Half: return "<f2";
    case ScalarType::Long: return "<i8";
    case ScalarType::Int: return "<i4";
    case ScalarType::Short: return "<i2";
    case ScalarType::Char: return "|i1";
    case ScalarType::Byte: return "|u1";
    case ScalarType::Bool: return "|b1";
    case ScalarType::UInt16: return "<u2";
    case ScalarType::UInt32: return "<u4";
    case ScalarType::UInt64: return "<u8";
    default: return nullptr;
  }
}

std::string npy_header(ScalarType dtype, Span<const int32_t> shape) {
  const char* descr = npy_descr(dtype);
  if (descr == nullptr) return "";
  std::string dict = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (";
  for (size_t d = 0; d < shape.size(); ++d) dict += std::to_string(shape[d]) + (shape.size() == 1 ? "," : d + 1 < shape.size() ? ", " : "");
  dict += "), }";
  const size_t fixed = kMagicSize + 2 + 2;
  size_t total = fixed + dict.size() + 1;  // + '\n'
  total = (total + 63) / 64 * 64;
  dict.append(total - fixed - dict.size() - 1, ' ');
  dict += '\n';
  std::string out(kMagic, kMagicSize);
  out += char(1);
  out += char(0);
  out += char(dict.size() & 0xff);
  out += char(dict.size() >> 8);
  return out + dict;
}

Error write_npy(const std::string& path, ScalarType dtype, Span<const int32_t> shape, const void* data,
                size_t nbytes) {
  const std::string header = npy_header(dtype, shape);
  if (header.empty()) {
    return fail(Error::NotSupported, "cannot write '%s': .npy has no dtype for %s", path.c_str(),
                scalar_type_name(dtype));
  }
  EMBER_ASSIGN_OR_RETURN(apps::AtomicFile out, apps::AtomicFile::create(path));
  EMBER_TRY(out.write(header));
  if (nbytes > 0) EMBER_TRY(out.write(data, nbytes));
  return out.commit();
}

double element_value(ScalarType dtype, const void* data, size_t i) {
  switch (dtype) {
    case ScalarType::Float: return static_cast<const float*>(data)[i];
    case ScalarType::Double: return static_cast<const double*>(data)[i];
    case ScalarType::Half: return float(static_cast<const Half*>(data)[i]);
    case ScalarType::BFloat16: return float(static_cast<const BFloat16*>(data)[i]);
    case ScalarType::Long: return double(static_cast<const int64_t*>(data)[i]);
    case ScalarType::Int: return static_cast<const int32_t*>(data)[i];
    case ScalarType::Short: return static_cast<const int16_t*>(data)[i];
    case ScalarType::Char: return static_cast<const int8_t*>(data)[i];
    case ScalarType::Byte: return static_cast<const uint8_t*>(data)[i];
    case ScalarType::Bool: return static_cast<const uint8_t*>(data)[i] != 0 ? 1 : 0;
    case ScalarType::UInt16: return static_cast<const uint16_t*>(data)[i];
    case ScalarType::UInt32: return static_cast<const uint32_t*>(data)[i];
    case ScalarType::UInt64: return double(static_cast<const uint64_t*>(data)[i]);
    default: return 0;
  }
}

bool is_npy_path(const std::string& path) {
  return path.size() >= 4 && path.compare(path.size() - 4, 4, ".npy") == 0;
}

}  // namespace ember::runtime
