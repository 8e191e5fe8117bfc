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
  kUserInput,
  kParameter,
  kBuffer,
  kTensorConstant,
  kCustomObj,
  kToken,
  kConstantInput,  // a non-tensor user input baked into the program (value in `constant`)
};

enum class OutputKind : uint8_t {
  kUserOutput,
  kLossOutput,
  kBufferMutation,
  kGradientToParameter,
  kGradientToUserInput,
  kUserInputMutation,
  kToken,
  kParameterMutation,
};

const char* to_string(InputKind kind);
const char* to_string(OutputKind kind);

struct InputSpec {
  InputKind kind = InputKind::kUserInput;
  std::string name;        // graph value name ("p_conv_weight", "x"); "" for constants
  std::string target;      // FQN ("conv.weight") for parameters/buffers/constants
  bool persistent = true;  // buffers: persistent ones live in the state dict
  Argument constant;       // kConstantInput and non-tensor user inputs: the value
};

struct OutputSpec {
  OutputKind kind = OutputKind::kUserOutput;
  std::string name;    // graph value name; "" when the output is a constant
  std::string target;  // mutated buffer / parameter FQN, user input name
};

struct GraphSignature {
  std::vector<InputSpec> inputs;
  std::vector<OutputSpec> outputs;
};

inline const char* to_string(InputKind kind) {
  switch (kind) {
    case InputKind::kUserInput:
      return "USER_INPUT";
    case InputKind::kParameter:
      return "PARAMETER";
    case InputKind::kBuffer:
      return "BUFFER";
    case InputKind::kTensorConstant:
      return "CONSTANT_TENSOR";
    case InputKind::kCustomObj:
      return "CUSTOM_OBJ";
    case InputKind::kToken:
      return "TOKEN";
    case InputKind::kConstantInput:
      return "CONSTANT_INPUT";
  }
  return "UNKNOWN";
}

inline const char* to_string(OutputKind kind) {
  switch (kind) {
    case OutputKind::kUserOutput:
      return "USER_OUTPUT";
    case OutputKind::kLossOutput:
      return "LOSS_OUTPUT";
    case OutputKind::kBufferMutation:
      return "BUFFER_MUTATION";
    case OutputKind::kGradientToParameter:
      return "GRADIENT_TO_PARAMETER";
    case OutputKind::kGradientToUserInput:
      return "GRADIENT_TO_USER_INPUT";
    case OutputKind::kUserInputMutation:
      return "USER_INPUT_MUTATION";
    case OutputKind::kToken:
      return "TOKEN";
    case OutputKind::kParameterMutation:
      return "PARAMETER_MUTATION";
  }
  return "UNKNOWN";
}

}  // namespace ember::aot
