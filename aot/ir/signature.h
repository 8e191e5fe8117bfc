// GraphSignature: what each graph input and output means (torch.export's signature).
//
// Graph inputs are all placeholders in order: lifted parameters, buffers, tensor
// constants, then user inputs; input_specs[i] describes Graph::inputs()[i]. Outputs map
// 1:1 likewise (buffer mutations first, then user outputs). `name` is the placeholder /
// output value name in the graph; `target` the state-dict FQN or user-input name.
#pragma once

#include <string>
#include <vector>

#include "aot/ir/argument.h"

namespace ember::aot {

enum class InputKind : uint8_t {
  UserInput,
  Parameter,
  Buffer,
  TensorConstant,
  CustomObj,
  Token,
  ConstantInput,  // a non-tensor user input baked into the program (value in `constant`)
};

enum class OutputKind : uint8_t {
  UserOutput,
  LossOutput,
  BufferMutation,
  GradientToParameter,
  GradientToUserInput,
  UserInputMutation,
  Token,
  ParameterMutation,
};

const char* to_string(InputKind kind);
const char* to_string(OutputKind kind);

struct InputSpec {
  InputKind kind = InputKind::UserInput;
  std::string name;        // graph value name ("p_conv_weight", "x"); "" for constants
  std::string target;      // FQN ("conv.weight") for parameters/buffers/constants
  bool persistent = true;  // buffers: persistent ones live in the state dict
  Argument constant;       // kConstantInput and non-tensor user inputs: the value
};

struct OutputSpec {
  OutputKind kind = OutputKind::UserOutput;
  std::string name;    // graph value name; "" when the output is a constant
  std::string target;  // mutated buffer / parameter FQN, user input name
};

struct GraphSignature {
  std::vector<InputSpec> inputs;
  std::vector<OutputSpec> outputs;
};

inline const char* to_string(InputKind kind) {
  switch (kind) {
    case InputKind::UserInput:
      return "USER_INPUT";
    case InputKind::Parameter:
      return "PARAMETER";
    case InputKind::Buffer:
      return "BUFFER";
    case InputKind::TensorConstant:
      return "CONSTANT_TENSOR";
    case InputKind::CustomObj:
      return "CUSTOM_OBJ";
    case InputKind::Token:
      return "TOKEN";
    case InputKind::ConstantInput:
      return "CONSTANT_INPUT";
  }
  return "UNKNOWN";
}

inline const char* to_string(OutputKind kind) {
  switch (kind) {
    case OutputKind::UserOutput:
      return "USER_OUTPUT";
    case OutputKind::LossOutput:
      return "LOSS_OUTPUT";
    case OutputKind::BufferMutation:
      return "BUFFER_MUTATION";
    case OutputKind::GradientToParameter:
      return "GRADIENT_TO_PARAMETER";
    case OutputKind::GradientToUserInput:
      return "GRADIENT_TO_USER_INPUT";
    case OutputKind::UserInputMutation:
      return "USER_INPUT_MUTATION";
    case OutputKind::Token:
      return "TOKEN";
    case OutputKind::ParameterMutation:
      return "PARAMETER_MUTATION";
  }
  return "UNKNOWN";
}

}  // namespace ember::aot
