// GraphSignature JSON decoding.
#include "aot/frontend/signature_json.h"

#include "aot/frontend/node_json.h"

namespace ember::aot {
namespace {

struct InputVariant {
  const char* key;
  InputKind kind;
  const char* target_key;
};
constexpr InputVariant kInputs[] = {
    {"user_input", InputKind::UserInput, nullptr},
    {"parameter", InputKind::Parameter, "parameter_name"},
    {"buffer", InputKind::Buffer, "buffer_name"},
    {"tensor_constant", InputKind::TensorConstant, "tensor_constant_name"},
    {"custom_obj", InputKind::CustomObj, "custom_obj_name"},
    {"token", InputKind::Token, nullptr},
    {"constant_input", InputKind::ConstantInput, nullptr},
};

struct OutputVariant {
  const char* key;
  OutputKind kind;
  const char* target_key;
};
constexpr OutputVariant kOutputs[] = {
    {"user_output", OutputKind::UserOutput, nullptr},
    {"loss_output", OutputKind::LossOutput, nullptr},
    {"buffer_mutation", OutputKind::BufferMutation, "buffer_name"},
    {"gradient_to_parameter", OutputKind::GradientToParameter, "parameter_name"},
    {"gradient_to_user_input", OutputKind::GradientToUserInput, "user_input_name"},
    {"user_input_mutation", OutputKind::UserInputMutation, "user_input_name"},
    {"token", OutputKind::Token, nullptr},
    {"parameter_mutation", OutputKind::ParameterMutation, "parameter_name"},
};

// `arg` is either a full Argument union (user inputs/outputs) or a bare {name} object.
Error decode_spec_arg(const Json& spec, Graph& g, const std::string& what, std::string* name,
                       Argument* constant) {
  EMBER_ASSIGN_OR_RETURN(const Json* arg, json_require(spec, "arg", what));
  if (const Json* bare = json_field(*arg, "name"); bare != nullptr && bare->is_string()) {
    *name = bare->get<std::string>();
    if (g.find_value(*name) == kNoValue) {
      return invalid_program(what + ": names '" + *name + "', which is not a graph value");
    }
    return Error::Ok;
  }
  EMBER_ASSIGN_OR_RETURN(Argument a, decode_argument(*arg, g, what));
  ValueId id = a.value();
  if (id != kNoValue) {
    *name = g.value(id).name;
  } else {
    *constant = std::move(a);
  }
  return Error::Ok;
}

Error decode_target(const Json& body, const char* key, const std::string& what, std::string* out) {
  if (key == nullptr) return Error::Ok;
  EMBER_ASSIGN_OR_RETURN(const Json* t, json_require(body, key, what));
  return json_string(*t, what + "." + key, out);
}

Result<InputSpec> decode_input(const Json& j, Graph& g, const std::string& what) {
  EMBER_ASSIGN_OR_RETURN(auto variant, json_union(j, what));
  for (const InputVariant& v : kInputs) {
    if (variant.first != v.key) continue;
    InputSpec spec;
    spec.kind = v.kind;
    const Json& body = *variant.second;
    std::string w = what + "." + v.key;
    if (v.kind == InputKind::ConstantInput) {
      if (const Json* n = json_field(body, "name"))
        EMBER_TRY(json_string(*n, w, &spec.target));
      EMBER_ASSIGN_OR_RETURN(const Json* value, json_require(body, "value", w));
      EMBER_ASSIGN_OR_RETURN(spec.constant, decode_argument(*value, g, w + ".value"));
      return spec;
    }
    EMBER_TRY(decode_spec_arg(body, g, w, &spec.name, &spec.constant));
    EMBER_TRY(decode_target(body, v.target_key, w, &spec.target));
    if (v.kind == InputKind::Buffer) {
      if (const Json* p = json_field(body, "persistent"))
        EMBER_TRY(json_bool(*p, w + ".persistent", &spec.persistent));
    }
    return spec;
  }
  return invalid_program(what + ": unknown input spec kind '" + variant.first + "'");
}

Result<OutputSpec> decode_output(const Json& j, Graph& g, const std::string& what) {
  EMBER_ASSIGN_OR_RETURN(auto variant, json_union(j, what));
  for (const OutputVariant& v : kOutputs) {
    if (variant.first != v.key) continue;
    OutputSpec spec;
    spec.kind = v.kind;
    std::string w = what + "." + v.key;
    Argument ignored;
    EMBER_TRY(decode_spec_arg(*variant.second, g, w, &spec.name, &ignored));
    EMBER_TRY(decode_target(*variant.second, v.target_key, w, &spec.target));
    return spec;
  }
  return invalid_program(what + ": unknown output spec kind '" + variant.first + "'");
}

}  // namespace

Error decode_signature(const Json& j, Graph& g, GraphSignature* out) {
  const Json* inputs = json_field(j, "input_specs");
  const Json* outputs = json_field(j, "output_specs");
  if (inputs == nullptr || outputs == nullptr) {
    if (json_field(j, "inputs_to_parameters") != nullptr) {
      return not_supported("graph signature in the torch 2.1 form (schema 1) is not supported");
    }
    return invalid_program("signature: missing input_specs/output_specs");
  }
  if (!inputs->is_array() || !outputs->is_array()) {
    return invalid_program("signature: input_specs/output_specs must be lists");
  }
  for (size_t i = 0; i < inputs->size(); ++i) {
    EMBER_ASSIGN_OR_RETURN(
        InputSpec s, decode_input((*inputs)[i], g, "input_specs[" + std::to_string(i) + "]"));
    out->inputs.push_back(std::move(s));
  }
  for (size_t i = 0; i < outputs->size(); ++i) {
    EMBER_ASSIGN_OR_RETURN(
        OutputSpec s, decode_output((*outputs)[i], g, "output_specs[" + std::to_string(i) + "]"));
    out->outputs.push_back(std::move(s));
  }
  return Error::Ok;
}

}  // namespace ember::aot
