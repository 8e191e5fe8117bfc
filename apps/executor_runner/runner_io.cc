#include "apps/executor_runner/runner_io.h"

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <sstream>

#include "runtime/core/diagnostics.h"
#include "runtime/core/half.h"
#include "runtime/loader/file_data_loader.h"
#include "apps/diagnostics/npy.h"
#include "apps/common/atomic_file.h"
#include "apps/common/printable.h"

namespace ember::runtime {

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, sep)) parts.push_back(part);
  if (!text.empty() && text.back() == sep) parts.emplace_back();
  return parts;
}

Error parse_shapes(const std::string& text, std::vector<std::vector<int32_t>>* out) {
  out->clear();
  if (text.empty()) return Error::Ok;
  for (const std::string& entry : split(text, ';')) {
    std::vector<int32_t> shape;
    if (!entry.empty()) {
      for (const std::string& dim : split(entry, ',')) {
        char* end = nullptr;
        errno = 0;
        const long long v = std::strtoll(dim.c_str(), &end, 10);
        if (dim.empty() || *end != '\0') {
          return fail(Error::InvalidArgument, "--input_shapes '%s' is malformed: shape %zu dim %zu is '%s', not a number",
                      apps::printable(text).c_str(), out->size(), shape.size(), apps::printable(dim).c_str());
        }
        if (v < 0 || v > INT32_MAX || errno == ERANGE) {
          return fail(Error::InvalidArgument,
                      "--input_shapes: shape %zu dim %zu is %s, outside [0, %d] (the largest size a dim can have)",
                      out->size(), shape.size(), apps::printable(dim).c_str(), INT32_MAX);
        }
        shape.push_back(int32_t(v));
      }
    }
    out->push_back(shape);
  }
  return Error::Ok;
}

namespace {

// "[1, 2048]".
std::string shape_text(const std::vector<int32_t>& sizes) {
  std::string s = "[";
  for (size_t d = 0; d < sizes.size(); ++d) s += (d == 0 ? "" : ", ") + std::to_string(sizes[d]);
  return s + "]";
}

void fill_ones(ScalarType type, void* data, size_t numel) {
  for (size_t i = 0; i < numel; ++i) {
    switch (type) {
      case ScalarType::Float: static_cast<float*>(data)[i] = 1.0f; break;
      case ScalarType::Double: static_cast<double*>(data)[i] = 1.0; break;
      case ScalarType::Half: static_cast<Half*>(data)[i] = Half(1.0f); break;
      case ScalarType::Long: static_cast<int64_t*>(data)[i] = 1; break;
      case ScalarType::Int: static_cast<int32_t*>(data)[i] = 1; break;
      case ScalarType::Short: static_cast<int16_t*>(data)[i] = 1; break;
      default: static_cast<uint8_t*>(data)[i * element_size(type)] = 1; break;
    }
  }
}

// splitmix64 (Steele, Lea and Flood 2014): the same stream on every platform.
uint64_t next_random(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Floats uniform in [-1, 1) (24 random bits), integers in [0, 10), bools 0/1; other types
// random bytes.
void fill_random(ScalarType type, void* data, size_t numel, uint64_t* state) {
  for (size_t i = 0; i < numel; ++i) {
    const uint64_t r = next_random(state);
    const float f = float(int64_t(r >> 40) - (int64_t(1) << 23)) / float(1 << 23);
    const int64_t k = int64_t(r % 10);
    switch (type) {
      case ScalarType::Float: static_cast<float*>(data)[i] = f; break;
      case ScalarType::Double: static_cast<double*>(data)[i] = f; break;
      case ScalarType::Half: static_cast<Half*>(data)[i] = Half(f); break;
      case ScalarType::BFloat16: static_cast<BFloat16*>(data)[i] = BFloat16(f); break;
      case ScalarType::Long: static_cast<int64_t*>(data)[i] = k; break;
      case ScalarType::Int: static_cast<int32_t*>(data)[i] = int32_t(k); break;
      case ScalarType::Short: static_cast<int16_t*>(data)[i] = int16_t(k); break;
      case ScalarType::Char: static_cast<int8_t*>(data)[i] = int8_t(k); break;
      case ScalarType::Byte: static_cast<uint8_t*>(data)[i] = uint8_t(k); break;
      case ScalarType::Bool: static_cast<uint8_t*>(data)[i] = uint8_t(r & 1); break;
      default: {
        uint8_t* p = static_cast<uint8_t*>(data) + i * element_size(type);
        for (size_t b = 0; b < element_size(type); ++b) p[b] = uint8_t(next_random(state));
      }
    }
  }
}

// Reads input `i` from the .npy file `path`: its dtype must be `type`, its rank that of
// `sizes`, and each dimension within [0, sizes[d]] (a dynamic input's actual shape; for a
// static one, sizes must match exactly, which set_input checks). On success `sizes` is the
// file's shape.
Error read_npy_input(size_t i, const std::string& path, ScalarType type, const std::vector<int32_t>& given,
                     std::vector<int32_t>* sizes, std::vector<uint8_t>* out) {
  Result<NpyArray> a = read_npy(path);
  if (!a.ok()) return annotate(a.error(), "input %zu", i);
  const NpyHeader& h = a->header;
  if (h.dtype != type) {
    return fail(Error::InvalidType, "input %zu: '%s' holds %s, the input is %s", i, path.c_str(),
                scalar_type_name(h.dtype), scalar_type_name(type));
  }
  char want[128], have[128];
  describe_shape(type, Span<const int32_t>(sizes->data(), sizes->size()), want, sizeof(want));
  describe_shape(h.dtype, Span<const int32_t>(h.shape.data(), h.shape.size()), have, sizeof(have));
  bool fits = h.shape.size() == sizes->size();
  for (size_t d = 0; fits && d < h.shape.size(); ++d) fits = h.shape[d] <= (*sizes)[d];
  if (!fits) {
    return fail(Error::InvalidArgument, "input %zu: '%s' has shape %s, the input is %s (dynamic dimensions may "
                "be smaller)", i, path.c_str(), have, want);
  }
  if (!given.empty() && given != h.shape) {
    return fail(Error::InvalidArgument, "input %zu: '%s' has shape %s, --input_shapes says otherwise", i,
                path.c_str(), have);
  }
  *sizes = h.shape;
  out->assign(a->data(), a->data() + h.data_size);
  return Error::Ok;
}

// Reads input file `path` for input `i` into `out`. The file must be a regular file of
// exactly `want` bytes; anything else is refused before a byte is read (a directory, a
// device such as /dev/zero, a file larger or smaller than the value it fills).
// `hint` is appended to the size mismatch message.
Error read_input_file(size_t i, const std::string& path, size_t want, std::vector<uint8_t>* out,
                      const std::string& hint = "") {
  Result<FileDataLoader> file = FileDataLoader::from(path.c_str());
  if (!file.ok()) return annotate(file.error(), "input %zu (needs %zu bytes)", i, want);
  const size_t have = *file->size();
  if (have != want) {
    return fail(Error::InvalidArgument, "input %zu: '%s' has %zu bytes, the input needs %zu%s", i, path.c_str(),
                have, want, hint.c_str());
  }
  out->assign(want, 0);
  if (want == 0) return Error::Ok;
  return file->load_into(0, want, SegmentInfo{}, out->data());
}

Error build_tensor_input(const Method& method, size_t i, const std::string* file,
                         const std::vector<int32_t>& shape, RunnerInputs* out, const InputFill& fill,
                         uint64_t* random_state) {
  Result<TensorInfo> info = method.method_meta().input_tensor_meta(i);
  if (!info.ok()) return info.error();
  std::vector<int32_t> sizes(info->sizes().begin(), info->sizes().end());
  if (!shape.empty()) {
    if (shape.size() != sizes.size()) {
      return fail(Error::InvalidArgument, "--input_shapes: input %zu has rank %zu, shape given has %zu", i,
                  sizes.size(), shape.size());
    }
    // A shape may shrink a dynamic dimension, never grow past what the program planned
    // (checked before anything is allocated or read).
    for (size_t d = 0; d < shape.size(); ++d) {
      if (shape[d] < 0 || shape[d] > sizes[d]) {
        return fail(Error::InvalidArgument,
                    "--input_shapes: input %zu dim %zu is %d, allowed range [0, %d]", i, d, int(shape[d]),
                    int(sizes[d]));
      }
    }
    sizes = shape;
  }
  std::vector<uint8_t> bytes;
  if (file != nullptr && is_npy_path(*file)) {
    EMBER_TRY(read_npy_input(i, *file, info->scalar_type(), shape, &sizes, &bytes));
  }
  size_t numel = 0;
  Tensor::compute_numel(Span<const int32_t>(sizes.data(), sizes.size()), &numel);
  const size_t nbytes = numel * element_size(info->scalar_type());
  if (file != nullptr && is_npy_path(*file)) {
    // read by read_npy_input
  } else if (file != nullptr) {
    bytes.resize(nbytes);
    std::string hint;
    if (shape.empty() && info->is_dynamic()) {  // the declared shape is only the upper bound
      hint = " at its upper bound " + shape_text(sizes) +
             "; the input is dynamic: give its actual shape with --input_shapes (each dim in [0, bound])";
    }
    EMBER_TRY(read_input_file(i, *file, nbytes, &bytes, hint));
  } else if (fill.random) {
    bytes.resize(nbytes);
    fill_random(info->scalar_type(), bytes.data(), numel, random_state);
  } else {
    bytes.resize(nbytes);
    fill_ones(info->scalar_type(), bytes.data(), numel);
  }
  out->bytes.push_back(std::move(bytes));
  out->sizes.push_back(sizes);
  out->dim_orders.emplace_back(info->dim_order().begin(), info->dim_order().end());
  out->strides.emplace_back(sizes.size());
  out->tensors.push_back(std::make_unique<Tensor>(info->scalar_type(), sizes.size(), out->sizes.back().data(),
                                                  out->dim_orders.back().data(), out->strides.back().data(),
                                                  out->bytes.back().data()));
  out->values[i] = EValue(out->tensors.back().get());
  return Error::Ok;
}

Error build_scalar_input(const Method& method, size_t i, const std::string* file, RunnerInputs* out) {
  const EValue& exported = method.get_input(i);
  if (file == nullptr) {
    out->values[i] = exported;
    return Error::Ok;
  }
  std::vector<uint8_t> data;
  if (is_npy_path(*file)) {  // a 0-d (or one-element) array of int64, float64 or bool
    Result<NpyArray> a = read_npy(*file);
    if (!a.ok()) return annotate(a.error(), "input %zu", i);
    const ScalarType want = exported.is_bool() ? ScalarType::Bool : exported.is_int() ? ScalarType::Long
                                                                                       : ScalarType::Double;
    if (a->header.dtype != want || a->header.data_size != element_size(want)) {
      return fail(Error::InvalidType, "input %zu: '%s' must hold one %s for this %s input", i, file->c_str(),
                  scalar_type_name(want), tag_name(exported.tag()));
    }
    data.assign(a->data(), a->data() + a->header.data_size);
    data.resize(8, 0);
  } else {
    EMBER_TRY_CONTEXT(read_input_file(i, *file, exported.is_bool() ? 1 : 8, &data), "%s input",
                      tag_name(exported.tag()));
  }
  if (exported.is_int()) {
    int64_t v;
    std::memcpy(&v, data.data(), 8);
    out->values[i] = EValue(v);
  } else if (exported.is_double()) {
    double v;
    std::memcpy(&v, data.data(), 8);
    out->values[i] = EValue(v);
  } else if (exported.is_bool()) {
    out->values[i] = EValue(data[0] != 0);
  } else {
    out->values[i] = exported;
  }
  return Error::Ok;
}

}  // namespace

Error build_inputs(const Method& method, const std::vector<std::string>& files,
                   const std::vector<std::vector<int32_t>>& shapes, RunnerInputs* out, const InputFill& fill) {
  uint64_t random_state = fill.seed;
  const size_t n = method.inputs_size();
  if (!files.empty() && files.size() != n) {
    return fail(Error::InvalidArgument, "--inputs gives %zu files, method '%s' takes %zu inputs", files.size(),
                method.name(), n);
  }
  if (shapes.size() > n) {
    return fail(Error::InvalidArgument, "--input_shapes gives %zu shapes, method takes %zu inputs", shapes.size(), n);
  }
  out->values.assign(n, EValue());
  out->bytes.reserve(n);
  out->sizes.reserve(n);
  out->dim_orders.reserve(n);
  out->strides.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const std::string* file = files.empty() ? nullptr : &files[i];
    static const std::vector<int32_t> kNoShape;
    const std::vector<int32_t>& shape = i < shapes.size() ? shapes[i] : kNoShape;
    if (method.get_input(i).is_tensor()) {
      EMBER_TRY(build_tensor_input(method, i, file, shape, out, fill, &random_state));
    } else {
      EMBER_TRY(build_scalar_input(method, i, file, out));
    }
  }
  return Error::Ok;
}

namespace {

double element(const Tensor& t, size_t i) { return element_value(t.scalar_type(), t.const_data_ptr(), i); }

void print_element(const Tensor& t, size_t i) {
  const double v = element(t, i);
  if (t.scalar_type() == ScalarType::Bool) {
    printf("%s", v != 0 ? "True" : "False");
  } else if (is_floating_point(t.scalar_type())) {
    if (v == double(int64_t(v))) printf("%.0f.", v); else printf("%g", v);
  } else {
    printf("%" PRId64, int64_t(v));
  }
}

void print_value(const EValue& v, PrintMode mode) {
  switch (v.tag()) {
    case Tag::Int: printf("%" PRId64, v.to_int()); return;
    case Tag::Double: printf("%g", v.to_double()); return;
    case Tag::Bool: printf("%s", v.to_bool() ? "True" : "False"); return;
    case Tag::String: printf("\"%.*s\"", int(v.to_string().size()), v.to_string().data()); return;
    case Tag::None: printf("None"); return;
    case Tag::Tensor: break;
    default: printf("<%s>", tag_name(v.tag())); return;
  }
  const Tensor& t = v.to_tensor();
  printf("tensor(sizes=[");
  for (size_t d = 0; d < t.dim(); ++d) printf(d ? ", %d" : "%d", t.size(d));
  printf("], [");
  const size_t n = t.const_data_ptr() == nullptr ? 0 : t.numel();
  for (size_t i = 0; i < n; ++i) {
    if (mode == PrintMode::Summary && n > 200 && i == 100) {
      printf(", ...");
      i = n - 100;
    }
    if (i > 0) printf(", ");
    print_element(t, i);
  }
  printf("])");
}

}  // namespace

std::string describe_inputs(const RunnerInputs& inputs) {
  std::string text;
  char line[256];
  for (size_t i = 0; i < inputs.values.size(); ++i) {
    const EValue& v = inputs.values[i];
    if (v.is_tensor()) {
      const Tensor& t = v.to_tensor();
      char shape[160];
      describe(t, shape, sizeof(shape));
      if (t.numel() == 0 || t.const_data_ptr() == nullptr) {
        snprintf(line, sizeof(line), "input %zu: %s (empty)\n", i, shape);
      } else {
        double lo = element(t, 0), hi = lo;
        for (size_t k = 1; k < t.numel(); ++k) {
          const double e = element(t, k);
          lo = e < lo ? e : lo;  // NaN never replaces a number
          hi = e > hi ? e : hi;
        }
        snprintf(line, sizeof(line), "input %zu: %s min %g max %g\n", i, shape, lo, hi);
      }
    } else if (v.is_int()) {
      snprintf(line, sizeof(line), "input %zu: int %" PRId64 "\n", i, v.to_int());
    } else if (v.is_double()) {
      snprintf(line, sizeof(line), "input %zu: double %g\n", i, v.to_double());
    } else if (v.is_bool()) {
      snprintf(line, sizeof(line), "input %zu: bool %s\n", i, v.to_bool() ? "True" : "False");
    } else {
      snprintf(line, sizeof(line), "input %zu: %s\n", i, tag_name(v.tag()));
    }
    text += line;
  }
  return text;
}

void print_outputs(const Method& method, PrintMode mode) {
  if (mode == PrintMode::None) return;
  for (size_t i = 0; i < method.outputs_size(); ++i) {
    const EValue& v = method.get_output(i);
    if (mode == PrintMode::All && v.is_tensor()) {
      printf("OutputX %zu:\n", i);
      const Tensor& t = v.to_tensor();
      for (size_t k = 0; t.const_data_ptr() != nullptr && k < t.numel(); ++k) {
        print_element(t, k);
        printf("\n");
      }
      continue;
    }
    printf("OutputX %zu: ", i);
    print_value(v, mode);
    printf("\n");
  }
}

std::vector<std::string> output_paths(const Method& method, const std::string& base) {
  std::vector<std::string> paths;
  for (size_t i = 0; i < method.outputs_size(); ++i) {
    if (method.get_output(i).is_tensor()) paths.push_back(base + "-" + std::to_string(i) + ".bin");
  }
  return paths;
}

Error write_outputs(const Method& method, const std::string& base) {
  // Every file is written to its temporary before any is renamed, so a full disk or a bad
  // folder leaves all previous outputs as they were (apps/common/atomic_file.h).
  std::vector<apps::AtomicFile> files;
  for (size_t i = 0; i < method.outputs_size(); ++i) {
    const EValue& v = method.get_output(i);
    if (!v.is_tensor()) continue;
    EMBER_ASSIGN_OR_RETURN(apps::AtomicFile f, apps::AtomicFile::create(base + "-" + std::to_string(i) + ".bin"));
    const Tensor& t = v.to_tensor();
    if (t.nbytes() > 0) EMBER_TRY(f.write(t.const_data_ptr(), t.nbytes()));
    files.push_back(std::move(f));
  }
  return apps::commit_all(files);
}

std::string outputs_json(const Method& method) {
  std::string json = "[";
  char buffer[64];
  for (size_t i = 0; i < method.outputs_size(); ++i) {
    const EValue& v = method.get_output(i);
    if (i > 0) json += ",";
    json += std::string("{\"kind\":\"") + tag_name(v.tag()) + "\"";
    if (v.is_tensor()) {
      const Tensor& t = v.to_tensor();
      json += std::string(",\"dtype\":\"") + scalar_type_name(t.scalar_type()) + "\",\"shape\":[";
      for (size_t d = 0; d < t.dim(); ++d) json += (d ? "," : "") + std::to_string(t.size(d));
      json += "]";
    } else if (v.is_int()) {
      json += ",\"value\":" + std::to_string(v.to_int());
    } else if (v.is_double()) {
      snprintf(buffer, sizeof(buffer), "%.17g", v.to_double());
      json += std::string(",\"value\":") + buffer;
    } else if (v.is_bool()) {
      json += std::string(",\"value\":") + (v.to_bool() ? "true" : "false");
    } else if (v.is_string()) {
      json += ",\"value\":\"";
      for (char c : v.to_string()) {
        if (c == '"' || c == '\\') json += '\\';
        if (static_cast<unsigned char>(c) < 0x20) continue;
        json += c;
      }
      json += "\"";
    }
    json += "}";
  }
  return json + "]";
}

}  // namespace ember::runtime
