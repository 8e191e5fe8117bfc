// write_bundled_program; see bundled_program_writer.h.
#include "aot/emit/bundled_program_writer.h"

#include <cstring>
#include <set>

#include "runtime/executor/pte_container.h"
#include "schema/bundled_program_generated.h"

namespace ember::aot {
namespace {

namespace bfb = ::bundled_program_flatbuffer;

std::string where(const std::string& method, size_t c, const char* role, size_t i) {
  return "bundled program: method '" + method + "' case " + std::to_string(c) + " " + role + " " +
         std::to_string(i);
}

Error check_tensor(const BundledIoValue& v, const std::string& at) {
  if (!runtime::is_valid(v.dtype)) return invalid_argument(at + ": not a .pte scalar type");
  if (v.sizes.size() > 16) return invalid_argument(at + ": rank above 16");
  size_t numel = 1;
  for (int32_t s : v.sizes) {
    if (s < 0) return invalid_argument(at + ": negative size");
    numel *= size_t(s);
  }
  const size_t want = numel * runtime::element_size(v.dtype);
  if (v.data.size() != want) {
    return invalid_argument(at + ": " + runtime::scalar_type_name(v.dtype) + " tensor of " +
                            std::to_string(numel) + " elements needs " + std::to_string(want) +
                            " bytes, got " + std::to_string(v.data.size()));
  }
  if (!v.dim_order.empty()) {
    std::set<uint8_t> seen(v.dim_order.begin(), v.dim_order.end());
    if (v.dim_order.size() != v.sizes.size() || seen.size() != v.sizes.size() ||
        *seen.rbegin() >= v.sizes.size()) {
      return invalid_argument(at + ": dim order is not a permutation of the dims");
    }
  }
  return Error::Ok;
}

flatbuffers::Offset<bfb::Value> build_value(flatbuffers::FlatBufferBuilder& fbb,
                                            const BundledIoValue& v) {
  switch (v.kind) {
    case BundledIoValue::Kind::Int:
      return bfb::CreateValue(fbb, bfb::ValueUnion::Int, bfb::CreateInt(fbb, v.int_value).Union());
    case BundledIoValue::Kind::Bool:
      return bfb::CreateValue(fbb, bfb::ValueUnion::Bool,
                              bfb::CreateBool(fbb, v.bool_value).Union());
    case BundledIoValue::Kind::Double:
      return bfb::CreateValue(fbb, bfb::ValueUnion::Double,
                              bfb::CreateDouble(fbb, v.double_value).Union());
    case BundledIoValue::Kind::Tensor:
      break;
  }
  std::vector<uint8_t> order = v.dim_order;
  if (order.empty()) {
    for (size_t d = 0; d < v.sizes.size(); ++d) order.push_back(uint8_t(d));
  }
  // The *Direct helper aligns the data vector to 16 (the schema's force_align).
  auto tensor =
      bfb::CreateTensorDirect(fbb, static_cast<int8_t>(v.dtype), &v.sizes, &v.data, &order);
  return bfb::CreateValue(fbb, bfb::ValueUnion::Tensor, tensor.Union());
}

Result<std::vector<flatbuffers::Offset<bfb::Value>>> build_values(
    flatbuffers::FlatBufferBuilder& fbb, const std::vector<BundledIoValue>& values,
    const std::string& method, size_t c, const char* role) {
  std::vector<flatbuffers::Offset<bfb::Value>> out;
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i].kind == BundledIoValue::Kind::Tensor) {
      EMBER_TRY(check_tensor(values[i], where(method, c, role, i)));
    }
    out.push_back(build_value(fbb, values[i]));
  }
  return out;
}

}  // namespace

Result<std::vector<uint8_t>> write_bundled_program(const std::vector<uint8_t>& pte,
                                                   const std::vector<BundledTestSuite>& suites) {
  if (!runtime::PteContainer::has_program_identifier(pte.data(), pte.size())) {
    return invalid_argument(
        "bundled program: the program to bundle is not a .pte (no 'ET12' identifier)");
  }
  if (suites.empty()) return invalid_argument("bundled program: no test suite to bundle");
  std::set<std::string> names;
  for (const BundledTestSuite& s : suites) {
    if (s.method.empty())
      return invalid_argument("bundled program: a test suite has no method name");
    if (!names.insert(s.method).second) {
      return invalid_argument("bundled program: two test suites for method '" + s.method + "'");
    }
  }
  flatbuffers::FlatBufferBuilder fbb(pte.size() + 4096);
  std::vector<flatbuffers::Offset<bfb::BundledMethodTestSuite>> suite_offsets;
  for (const BundledTestSuite& s : suites) {
    std::vector<flatbuffers::Offset<bfb::BundledMethodTestCase>> cases;
    for (size_t c = 0; c < s.cases.size(); ++c) {
      EMBER_ASSIGN_OR_RETURN(auto inputs,
                             build_values(fbb, s.cases[c].inputs, s.method, c, "input"));
      EMBER_ASSIGN_OR_RETURN(auto expected, build_values(fbb, s.cases[c].expected_outputs, s.method,
                                                         c, "expected output"));
      cases.push_back(bfb::CreateBundledMethodTestCaseDirect(fbb, &inputs, &expected));
    }
    suite_offsets.push_back(bfb::CreateBundledMethodTestSuiteDirect(fbb, s.method.c_str(), &cases));
  }
  // The *Direct helper aligns the program vector to 32 (the schema's force_align).
  auto root = bfb::CreateBundledProgramDirect(fbb, kBundledProgramVersion, &suite_offsets, &pte);
  bfb::FinishBundledProgramBuffer(fbb, root);
  return std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

}  // namespace ember::aot
