// The shared kernel case harness; see kernel_case_runner.h.
#include "kernels/test/kernel_case_runner.h"

#include <dirent.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <deque>
#include <memory>

#include "kernels/portable/util/cast.h"
#include "kernels/portable/util/dispatch.h"
#include "kernels/portable/util/tensor_util.h"
#include "runtime/core/diagnostics.h"
#include "runtime/core/memory_allocator.h"

namespace ember::kernels::testing {

namespace {

namespace portable = ember::kernels::portable;
using runtime::EValue;
using runtime::Tensor;

// Owns everything the boxed values of one call point at.
struct Arena {
  std::deque<std::vector<int32_t>> sizes;
  std::deque<std::vector<uint8_t>> orders;
  std::deque<std::vector<int32_t>> strides;
  std::deque<std::vector<uint64_t>> data;
  std::deque<Tensor> tensors;
  std::deque<EValue> values;
  std::deque<std::vector<EValue*>> pointer_lists;
  std::deque<std::vector<int64_t>> int_scratch;
  std::deque<std::vector<double>> doubles;
  std::unique_ptr<bool[]> bools[4];
  int num_bools = 0;

  Tensor* tensor(const TensorData& d, bool is_out) {
    sizes.emplace_back(d.sizes.begin(), d.sizes.end());
    orders.push_back(d.dim_order);
    strides.emplace_back(d.sizes.size());
    const size_t nbytes = static_cast<size_t>(d.numel()) * case_dtype_size(uint8_t(d.dtype));
    data.emplace_back(nbytes / 8 + 1, 0);
    if (!is_out && !d.data.empty()) std::memcpy(data.back().data(), d.data.data(), d.data.size());
    const auto dyn = is_out ? runtime::ShapeDynamism::DynamicBound : runtime::ShapeDynamism::Static;
    tensors.emplace_back(static_cast<runtime::ScalarType>(d.dtype), d.sizes.size(),
                         sizes.back().data(), orders.back().data(), strides.back().data(),
                         data.back().data(), dyn);
    return &tensors.back();
  }

  EValue* value(EValue v) {
    values.push_back(v);
    return &values.back();
  }
};

EValue* box(Arena& arena, const CaseArg& a, std::vector<Tensor*>* outs) {
  switch (a.kind) {
    case ArgKind::Tensor: {
      Tensor* t = arena.tensor(a.tensor, a.is_out);
      if (a.is_out) outs->push_back(t);
      return arena.value(EValue(t));
    }
    case ArgKind::Int: return arena.value(EValue(a.int_value));
    case ArgKind::Double: return arena.value(EValue(a.double_value));
    case ArgKind::Bool: return arena.value(EValue(a.bool_value));
    case ArgKind::ScalarType: return arena.value(EValue(int64_t(a.scalar_type)));
    case ArgKind::MemoryFormat: return arena.value(EValue(int64_t(a.memory_format)));
    case ArgKind::OptionalNone: return arena.value(EValue());
    case ArgKind::String: return arena.value(EValue(std::string_view(a.string_value)));
    case ArgKind::IntList: {
      std::vector<EValue*> items;
      for (int64_t v : a.int_list) items.push_back(arena.value(EValue(v)));
      arena.pointer_lists.push_back(std::move(items));
      arena.int_scratch.emplace_back(a.int_list.size() + 1);
      return arena.value(EValue(runtime::BoxedIntList(arena.pointer_lists.back().data(),
                                                      arena.int_scratch.back().data(),
                                                      a.int_list.size())));
    }
    case ArgKind::DoubleList:
      arena.doubles.push_back(a.double_list);
      return arena.value(EValue(runtime::Span<const double>(arena.doubles.back().data(),
                                                            a.double_list.size())));
    case ArgKind::BoolList: {
      const int i = arena.num_bools++ % 4;
      arena.bools[i].reset(new bool[a.bool_list.size() + 1]);
      for (size_t k = 0; k < a.bool_list.size(); ++k) arena.bools[i][k] = a.bool_list[k] != 0;
      return arena.value(
          EValue(runtime::Span<const bool>(arena.bools[i].get(), a.bool_list.size())));
    }
    case ArgKind::TensorList: {
      std::vector<EValue*> items;
      for (const TensorData& d : a.tensor_list) {
        Tensor* t = arena.tensor(d, a.is_out);
        if (a.is_out) outs->push_back(t);
        items.push_back(arena.value(EValue(t)));
      }
      arena.pointer_lists.push_back(std::move(items));
      return arena.value(
          EValue(runtime::TensorList(arena.pointer_lists.back().data(), a.tensor_list.size())));
    }
    case ArgKind::OptionalTensorList: {
      std::vector<EValue*> items;
      for (const auto& d : a.optional_tensor_list) {
        items.push_back(d.has_value() ? arena.value(EValue(arena.tensor(*d, false)))
                                      : arena.value(EValue()));
      }
      arena.pointer_lists.push_back(std::move(items));
      return arena.value(EValue(runtime::OptionalTensorList(arena.pointer_lists.back().data(),
                                                            a.optional_tensor_list.size())));
    }
  }
  return arena.value(EValue());
}

// Element i (logical order) of `t` as double.
double element(const Tensor& t, const int64_t* strides, int64_t i) {
  double v = 0;
  portable::dispatch<portable::kAll>(t.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    v = portable::cast<double>(
        t.const_data_ptr<T>()[portable::offset_of(i, t.sizes().data(), strides, t.dim())]);
  });
  return v;
}

double expected_element(const TensorData& d, const std::vector<int64_t>& strides, int64_t i) {
  int64_t off = 0, rest = i;
  for (size_t k = d.sizes.size(); k-- > 0;) {
    off += (rest % d.sizes[k]) * strides[k];
    rest /= d.sizes[k];
  }
  double v = 0;
  portable::dispatch<portable::kAll>(static_cast<runtime::ScalarType>(d.dtype), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T x;
    std::memcpy(&x, d.data.data() + off * sizeof(T), sizeof(T));
    v = portable::cast<double>(x);
  });
  return v;
}

// " (inputs: 1.5, 2)": the same-numel input tensors' elements at logical index i.
std::string inputs_at(const Case& c, int64_t i) {
  std::string s;
  for (const CaseArg& a : c.args) {
    if (a.is_out || a.kind != ArgKind::Tensor || a.tensor.numel() <= i) continue;
    char b[48];
    std::snprintf(b, sizeof(b), "%s%s=%.9g", s.empty() ? " (inputs: " : ", ", a.name.c_str(),
                  expected_element(a.tensor, a.tensor.strides(), i));
    s += b;
  }
  return s.empty() ? s : s + ")";
}

std::string compare(const Tensor& got, const TensorData& want, const Case& c, size_t index) {
  char buf[256];
  if (static_cast<int>(got.scalar_type()) != static_cast<int>(want.dtype)) {
    std::snprintf(buf, sizeof(buf), "out %zu dtype %s, want %s", index,
                  runtime::scalar_type_name(got.scalar_type()), runtime::scalar_type_name(want.dtype));
    return buf;
  }
  bool same = got.dim() == want.sizes.size();
  for (size_t i = 0; same && i < got.dim(); ++i) same = got.size(i) == want.sizes[i];
  if (!same) {
    char g[96];
    std::string w = "[";
    for (int64_t s : want.sizes) w += std::to_string(s) + ",";
    std::snprintf(buf, sizeof(buf), "out %zu shape %s, want %s]", index,
                  runtime::describe(got, g, sizeof(g)), w.c_str());
    return buf;
  }
  const bool is_float = runtime::is_floating_point(got.scalar_type());
  int64_t strides[runtime::kMaxTensorDims];
  portable::tensor_strides(got, strides);
  const std::vector<int64_t> want_strides = want.strides();
  for (int64_t i = 0; i < want.numel(); ++i) {
    const double g = element(got, strides, i);
    const double w = expected_element(want, want_strides, i);
    bool ok;
    if (std::isnan(w) || std::isnan(g)) {
      ok = std::isnan(w) && std::isnan(g);
    } else if (std::isinf(w) || std::isinf(g)) {
      ok = g == w;
    } else if (is_float) {
      ok = std::fabs(g - w) <= c.atol + c.rtol * std::fabs(w);
    } else {
      ok = g == w;
    }
    if (!ok) {
      std::snprintf(buf, sizeof(buf), "out %zu element %lld: got %.9g, want %.9g", index,
                    static_cast<long long>(i), g, w);
      return buf + inputs_at(c, i);
    }
  }
  return "";
}

}  // namespace

CaseOutcome run_case(const runtime::KernelRegistry& registry, const std::string& op_key,
                     const Case& c, runtime::ThreadPool* thread_pool) {
  CaseOutcome outcome;
  runtime::Result<runtime::OpFunction> fn = registry.find(op_key);
  if (!fn.ok()) {
    outcome.message = "no kernel registered for " + op_key;
    return outcome;
  }
  Arena arena;
  std::vector<Tensor*> outs;
  std::vector<EValue*> args;
  for (const CaseArg& a : c.args) args.push_back(box(arena, a, &outs));
  // An in-place op (copy_, index_put_) mutates and returns self.
  if (outs.empty() && !c.args.empty() && c.args[0].kind == ArgKind::Tensor) {
    outs.push_back(args[0]->tensor_ptr());
    args.push_back(args[0]);
  }
  // The return slot: the out value, or a TensorList of several outs.
  size_t out_args = 0;
  EValue* last_out = nullptr;
  std::vector<EValue*> out_values;
  for (size_t i = 0; i < c.args.size(); ++i) {
    if (!c.args[i].is_out) continue;
    ++out_args;
    last_out = args[i];
    out_values.push_back(args[i]);
  }
  if (out_args == 1) {
    args.push_back(last_out);
  } else if (out_args > 1) {
    arena.pointer_lists.push_back(out_values);
    args.push_back(arena.value(
        EValue(runtime::TensorList(arena.pointer_lists.back().data(), out_values.size()))));
  }
  std::vector<uint8_t> temp(4 << 20);
  runtime::MemoryAllocator temp_allocator(temp.data(), temp.size());
  runtime::KernelRuntimeContext ctx(&temp_allocator, thread_pool);
  runtime::clear_error_message();
  (*fn)(ctx, {args.data(), args.size()});
  if (c.expect_error) {
    outcome.passed = ctx.failure_state() != runtime::Error::Ok;
    if (!outcome.passed) outcome.message = "expected an error, the kernel succeeded";
    return outcome;
  }
  if (ctx.failure_state() != runtime::Error::Ok) {
    outcome.message = std::string("kernel failed: ") + runtime::error_name(ctx.failure_state()) +
                      ": " + runtime::last_error_message();
    return outcome;
  }
  // Outputs beyond the outs are mutated inputs (batch norm's running stats):
  // the last non-out tensor arguments, in schema order.
  if (c.outputs.size() > outs.size()) {
    std::vector<Tensor*> mutated;
    for (size_t i = c.args.size(); i-- > 0 && mutated.size() < c.outputs.size() - outs.size();) {
      if (!c.args[i].is_out && c.args[i].kind == ArgKind::Tensor) {
        mutated.insert(mutated.begin(), args[i]->tensor_ptr());
      }
    }
    outs.insert(outs.end(), mutated.begin(), mutated.end());
  }
  if (outs.size() != c.outputs.size()) {
    outcome.message = "case has " + std::to_string(c.outputs.size()) + " outputs for " +
                      std::to_string(outs.size()) + " out tensors";
    return outcome;
  }
  for (size_t i = 0; i < outs.size(); ++i) {
    outcome.message = compare(*outs[i], c.outputs[i], c, i);
    if (!outcome.message.empty()) return outcome;
  }
  outcome.passed = true;
  return outcome;
}

FileOutcome run_case_file(const runtime::KernelRegistry& registry, const CaseFile& file,
                          runtime::ThreadPool* thread_pool) {
  FileOutcome result;
  result.op_key = file.op_key;
  result.registered = registry.contains(file.op_key);
  result.cases = file.cases.size();
  if (!result.registered) return result;
  for (const Case& c : file.cases) {
    const CaseOutcome o = run_case(registry, file.op_key, c, thread_pool);
    if (o.passed) {
      ++result.passed;
    } else {
      result.failures.push_back(c.name + ": " + o.message);
    }
  }
  return result;
}

std::vector<std::string> list_case_files(const std::string& dir) {
  std::vector<std::string> files;
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return files;
  while (dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (name.size() > 5 && name.compare(name.size() - 5, 5, ".case") == 0) {
      files.push_back(dir + "/" + name);
    }
  }
  closedir(d);
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace ember::kernels::testing
