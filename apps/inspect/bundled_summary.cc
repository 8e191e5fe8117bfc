// bundled_summary_text / _json; see bundled_summary.h.
#include "apps/inspect/bundled_summary.h"

#include <nlohmann/json.hpp>

#include "apps/inspect/pte_summary.h"
#include "runtime/bundled/bundled_program.h"
#include "apps/common/printable.h"

namespace ember::aot {
namespace {

using apps::printable;

// A test case is printed in full up to this many per suite; the rest are counted.
constexpr size_t kCasesShown = 20;

std::string value_text(const runtime::BundledValue& v) {
  switch (v.kind) {
    case runtime::BundledValueKind::Tensor: {
      std::string s = std::string(runtime::scalar_type_name(v.dtype)) + "[";
      for (size_t d = 0; d < v.sizes.size(); ++d) s += (d ? ", " : "") + std::to_string(v.sizes[d]);
      return s + "]";
    }
    case runtime::BundledValueKind::Int:
      return "Int " + std::to_string(v.int_value);
    case runtime::BundledValueKind::Bool:
      return std::string("Bool ") + (v.bool_value ? "true" : "false");
    case runtime::BundledValueKind::Double:
      return "Double " + std::to_string(v.double_value);
  }
  return "?";
}

Result<runtime::BundledProgram> open(const std::vector<uint8_t>& bytes) {
  runtime::Result<runtime::BundledProgram> b =
      runtime::BundledProgram::open(bytes.data(), bytes.size());
  if (!b.ok()) return b.error();  // the reader's message stays the thread's last one
  return *b;
}

std::vector<uint8_t> inner(const runtime::BundledProgram& b) {
  return std::vector<uint8_t>(b.program().begin(), b.program().end());
}

}  // namespace

Result<std::string> bundled_summary_text(const std::vector<uint8_t>& bytes) {
  EMBER_ASSIGN_OR_RETURN(runtime::BundledProgram b, open(bytes));
  std::string out = "bundled program (.bpte, BP08): version " + std::to_string(b.version()) +
                    ", inner program " + std::to_string(b.program().size()) + " bytes, " +
                    std::to_string(b.num_suites()) + " test suite(s)\n";
  for (size_t s = 0; s < b.num_suites(); ++s) {
    out += "  method '" + printable(b.method_name(s)) + "': " + std::to_string(b.num_cases(s)) +
           " case(s)\n";
    for (size_t c = 0; c < b.num_cases(s) && c < kCasesShown; ++c) {
      out += "    case " + std::to_string(c) + ": ";
      for (size_t i = 0; i < b.num_inputs(s, c); ++i)
        out += (i ? ", " : "") + value_text(b.input(s, c, i));
      out += " -> expected ";
      for (size_t i = 0; i < b.num_expected_outputs(s, c); ++i) {
        out += (i ? ", " : "") + value_text(b.expected_output(s, c, i));
      }
      out += "\n";
    }
    if (b.num_cases(s) > kCasesShown)
      out += "    ... " + std::to_string(b.num_cases(s) - kCasesShown) + " more\n";
  }
  auto summary = summarize_pte(inner(b));
  if (!summary.ok()) return annotate(summary.error(), "the program inside the bundled program");
  return out + "inner program:\n" + pte_summary_text(*summary);
}

Result<std::string> bundled_summary_json(const std::vector<uint8_t>& bytes) {
  EMBER_ASSIGN_OR_RETURN(runtime::BundledProgram b, open(bytes));
  nlohmann::json suites = nlohmann::json::array();
  for (size_t s = 0; s < b.num_suites(); ++s) {
    nlohmann::json cases = nlohmann::json::array();
    for (size_t c = 0; c < b.num_cases(s); ++c) {
      nlohmann::json ins = nlohmann::json::array(), outs = nlohmann::json::array();
      for (size_t i = 0; i < b.num_inputs(s, c); ++i) ins.push_back(value_text(b.input(s, c, i)));
      for (size_t i = 0; i < b.num_expected_outputs(s, c); ++i)
        outs.push_back(value_text(b.expected_output(s, c, i)));
      cases.push_back({{"inputs", ins}, {"expected_outputs", outs}});
    }
    suites.push_back({{"method", b.method_name(s)}, {"cases", cases}});
  }
  auto summary = summarize_pte(inner(b));
  if (!summary.ok()) return annotate(summary.error(), "the program inside the bundled program");
  nlohmann::json out = {
      {"bundled",
       {{"version", b.version()}, {"program_bytes", b.program().size()}, {"suites", suites}}},
      {"program", nlohmann::json::parse(pte_summary_json(*summary))}};
  return out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

Result<std::vector<uint8_t>> bundled_inner_program(const std::vector<uint8_t>& bytes) {
  EMBER_ASSIGN_OR_RETURN(runtime::BundledProgram b, open(bytes));
  return inner(b);
}

}  // namespace ember::aot
