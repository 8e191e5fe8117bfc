// Helpers for the reference tests: turn a manifest.json case into runtime
// inputs (tensors over owned bytes, scalars) and compare outputs against the
// upstream ExecuTorch 1.4.1 reference within the case's tolerance.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "runtime/core/evalue.h"

namespace ember::testing {

// Owns the storage behind input EValues.
struct CaseInputs {
  std::vector<std::vector<uint8_t>> data;
  std::vector<std::vector<int32_t>> sizes;
  std::vector<std::vector<uint8_t>> dim_orders;
  std::vector<std::vector<int32_t>> strides;
  std::vector<std::unique_ptr<runtime::Tensor>> tensors;
  std::vector<runtime::EValue> values;
};

// Dtype name as the manifest spells it ("float32") to a ScalarType; false if unknown.
bool parse_dtype(const std::string& name, runtime::ScalarType* out);

// Builds inputs from `c["inputs"]`, reading .bin files under `fixtures_dir`. "" on success.
std::string build_inputs(const nlohmann::json& c, const std::string& fixtures_dir, CaseInputs* out);

// Compares one output against its manifest entry. "" when it matches, else why.
std::string compare_output(const nlohmann::json& expected, const runtime::EValue& got,
                           const std::string& fixtures_dir);

}  // namespace ember::testing
