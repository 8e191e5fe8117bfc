// JSON helpers for the .pt2 reader: lenient parsing, typed non-throwing accessors and
// torch.export union handling.
//
// nlohmann::json throws; everything here catches at the boundary and returns Error.
// parse_json() accepts non-finite floats written as bare tokens (Infinity, -Infinity,
// NaN; torch <= 2.7) by rewriting them into the string form current torch writes
// ("Infinity", ...), which get_double() accepts. Objects keep file order (ordered_json).
// Unions follow pt2-format.md fact 3: exactly one key, or (torch <= 2.2) every variant
// key with nulls for the unused ones.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "aot/ir/error.h"

namespace ember::aot {

using Json = nlohmann::ordered_json;

// Deepest JSON nesting parse_json() accepts (protobuf's parser uses the same limit). The
// deepest torch.export JSON in the fixture corpus nests 23 levels (nested torch.cond).
constexpr size_t kMaxJsonDepth = 100;

// Parses `text`; errors are Error::InvalidProgram naming `what` and the byte offset, also for
// nesting deeper than kMaxJsonDepth (checked without recursion before parsing), and
// MemoryAllocationFailed when memory runs out (never reported as malformed JSON).
Result<Json> parse_json(const std::string& text, const std::string& what);

// MemoryAllocationFailed naming `what`: the one message for a std::bad_alloc caught while
// reading a .pt2, so an out-of-memory never reads as a malformed file.
Error out_of_memory(const std::string& what);

// Member `key` of object `j`, or nullptr if `j` is not an object, lacks the key, or the
// value is null (the three are the same for optional fields).
const Json* json_field(const Json& j, const char* key);

// Typed reads of `j`; `what` names the field in error messages (Error::InvalidProgram).
Error json_int(const Json& j, const std::string& what, int64_t* out);
Error json_double(const Json& j, const std::string& what,
                  double* out);  // numbers or "NaN"/"Infinity"/"-Infinity"
Error json_bool(const Json& j, const std::string& what, bool* out);
Error json_string(const Json& j, const std::string& what, std::string* out);
// Required member: missing/null is Error::InvalidProgram "<what>: missing '<key>'".
Result<const Json*> json_require(const Json& j, const char* key, const std::string& what);

// The active variant of a union: (variant name, value). A union whose keys are all null
// resolves to its "as_none" variant if it has one (torch 2.2 writes as_none: null).
Result<std::pair<std::string, const Json*>> json_union(const Json& j, const std::string& what);

}  // namespace ember::aot
