// bundle_cases_from_files; see bundle_cases.h.
#include "aot/tools/bundle_cases.h"

#include <cstring>

#include "aot/frontend/pt2_reader.h"
#include "runtime/module/module.h"

namespace ember::aot {
namespace {

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    out.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

std::string shape_text(runtime::ScalarType dtype, runtime::Span<const int32_t> sizes) {
  std::string s = std::string(runtime::scalar_type_name(dtype)) + "[";
  for (size_t d = 0; d < sizes.size(); ++d) s += (d ? ", " : "") + std::to_string(sizes[d]);
  return s + "]";
}

// One value of `role` ("input" / "output") slot `i` from `file`, typed by the method.
Result<BundledIoValue> read_value(runtime::Result<runtime::Tag> tag, runtime::Result<runtime::TensorInfo> info,
                                  const std::string& file, const std::string& at,
                                  const std::function<std::string(const std::string&)>& resolve) {
  if (!tag.ok()) return fail(tag.error(), at + ": the method does not describe it");
  EMBER_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, read_file_bytes(resolve(file)));
  BundledIoValue v;
  size_t need = 0;
  std::string what;
  switch (*tag) {
    case runtime::Tag::Tensor: {
      if (!info.ok()) return fail(info.error(), at + ": no tensor description");
      v.kind = BundledIoValue::Kind::Tensor;
      v.dtype = info->scalar_type();
      v.sizes.assign(info->sizes().begin(), info->sizes().end());
      v.dim_order.assign(info->dim_order().begin(), info->dim_order().end());
      need = info->nbytes();
      what = shape_text(v.dtype, info->sizes());
      break;
    }
    case runtime::Tag::Int:
      v.kind = BundledIoValue::Kind::Int;
      need = 8;
      what = "an Int, int64";
      break;
    case runtime::Tag::Double:
      v.kind = BundledIoValue::Kind::Double;
      need = 8;
      what = "a Double, float64";
      break;
    case runtime::Tag::Bool:
      v.kind = BundledIoValue::Kind::Bool;
      need = 1;
      what = "a Bool";
      break;
    default:
      return not_supported(at + ": only tensors, Int, Double and Bool can be bundled");
  }
  if (bytes.size() != need) {
    return invalid_argument(at + ": '" + file + "' has " + std::to_string(bytes.size()) + " bytes, " + what +
                            " needs " + std::to_string(need));
  }
  if (v.kind == BundledIoValue::Kind::Tensor) {
    v.data = std::move(bytes);
  } else if (v.kind == BundledIoValue::Kind::Int) {
    std::memcpy(&v.int_value, bytes.data(), 8);
  } else if (v.kind == BundledIoValue::Kind::Double) {
    std::memcpy(&v.double_value, bytes.data(), 8);
  } else {
    v.bool_value = bytes[0] != 0;
  }
  return v;
}

}  // namespace

Result<BundledTestSuite> bundle_cases_from_files(const std::vector<uint8_t>& pte,
                                                 const std::vector<std::string>& input_flags,
                                                 const std::vector<std::string>& output_flags,
                                                 const std::function<std::string(const std::string&)>& resolve) {
  if (input_flags.size() != output_flags.size() || input_flags.empty()) {
    return invalid_argument("--bundle_inputs and --bundle_outputs make one test case per pair: got " +
                            std::to_string(input_flags.size()) + " --bundle_inputs and " +
                            std::to_string(output_flags.size()) + " --bundle_outputs");
  }
  runtime::Module module(pte.data(), pte.size());
  if (runtime::Error err = module.load(); err != runtime::Error::Ok) {
    return annotate(err, "bundling: the lowered program does not load");
  }
  EMBER_ASSIGN_OR_RETURN(std::vector<std::string> methods, module.method_names());
  if (methods.size() != 1) {
    return invalid_argument("bundling: the program has " + std::to_string(methods.size()) +
                            " methods; --bundle_inputs works on a single-method program");
  }
  EMBER_ASSIGN_OR_RETURN(runtime::MethodMeta meta, module.method_meta(methods[0]));
  BundledTestSuite suite;
  suite.method = methods[0];
  for (size_t c = 0; c < input_flags.size(); ++c) {
    const std::vector<std::string> ins = split_commas(input_flags[c]);
    const std::vector<std::string> outs = split_commas(output_flags[c]);
    const std::string at = "bundled case " + std::to_string(c) + " of method '" + suite.method + "'";
    if (ins.size() != meta.num_inputs()) {
      return invalid_argument(at + ": --bundle_inputs '" + input_flags[c] + "' names " + std::to_string(ins.size()) +
                              " file(s), the method takes " + std::to_string(meta.num_inputs()) + " input(s)");
    }
    if (outs.size() != meta.num_outputs()) {
      return invalid_argument(at + ": --bundle_outputs '" + output_flags[c] + "' names " +
                              std::to_string(outs.size()) + " file(s), the method gives " +
                              std::to_string(meta.num_outputs()) + " output(s)");
    }
    BundledTestCase test_case;
    for (size_t i = 0; i < ins.size(); ++i) {
      EMBER_ASSIGN_OR_RETURN(BundledIoValue v, read_value(meta.input_tag(i), meta.input_tensor_meta(i), ins[i],
                                                          at + " input " + std::to_string(i), resolve));
      test_case.inputs.push_back(std::move(v));
    }
    for (size_t i = 0; i < outs.size(); ++i) {
      EMBER_ASSIGN_OR_RETURN(BundledIoValue v, read_value(meta.output_tag(i), meta.output_tensor_meta(i), outs[i],
                                                          at + " expected output " + std::to_string(i), resolve));
      test_case.expected_outputs.push_back(std::move(v));
    }
    suite.cases.push_back(std::move(test_case));
  }
  return suite;
}

std::string bundled_output_path(const std::string& pte_path, const std::string& bundle_out) {
  if (!bundle_out.empty()) return bundle_out;
  const size_t slash = pte_path.find_last_of('/');
  const size_t dot = pte_path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return pte_path + ".bpte";
  return pte_path.substr(0, dot) + ".bpte";
}

}  // namespace ember::aot
