// Lenient JSON parsing and typed accessors (see json_util.h).
#include "aot/frontend/json_util.h"

#include <cmath>
#include <limits>

namespace ember::aot {
namespace {

// Rewrites bare NaN / Infinity / -Infinity tokens outside strings into strings.
std::string quote_non_finite(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) {
        out += text[++i];
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
      out += c;
      continue;
    }
    bool matched = false;
    for (const char* tok : {"-Infinity", "Infinity", "NaN"}) {
      size_t n = std::char_traits<char>::length(tok);
      if (text.compare(i, n, tok) == 0) {
        out += '"';
        out += tok;
        out += '"';
        i += n - 1;
        matched = true;
        break;
      }
    }
    if (!matched) out += c;
  }
  return out;
}

const char* type_name(const Json& j) { return j.type_name(); }

// One iterative pass over `text` counting '[' / '{' outside strings: refuses nesting deeper
// than kMaxJsonDepth before nlohmann builds (and, on copy, recursively walks) the tree.
Error check_depth(const std::string& text, const std::string& what) {
  size_t depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) {
        return invalid_program(what + ": JSON nested deeper than " + std::to_string(kMaxJsonDepth) +
                               " levels (at byte " + std::to_string(i) +
                               "); torch.export writes at most a few dozen");
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return Error::Ok;
}

}  // namespace

Error out_of_memory(const std::string& what) {
  return fail(Error::MemoryAllocationFailed,
              what +
                  ": out of memory (std::bad_alloc) while reading it; the file needs more "
                  "memory than this process may use");
}

Result<Json> parse_json(const std::string& text, const std::string& what) {
  EMBER_TRY(check_depth(text, what));
  try {
    return Json::parse(quote_non_finite(text));
  } catch (const std::bad_alloc&) {
    return out_of_memory(what);
  } catch (const std::exception& e) {
    return invalid_program(what + ": malformed JSON: " + e.what());
  }
}

const Json* json_field(const Json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return nullptr;
  return &*it;
}

Result<const Json*> json_require(const Json& j, const char* key, const std::string& what) {
  if (!j.is_object()) {
    return invalid_program(what + ": expected an object, got " + std::string(type_name(j)));
  }
  const Json* f = json_field(j, key);
  if (f == nullptr) return invalid_program(what + ": missing '" + key + "'");
  return f;
}

Error json_int(const Json& j, const std::string& what, int64_t* out) {
  if (j.is_number_integer() && !j.is_number_unsigned()) {
    *out = j.get<int64_t>();
    return Error::Ok;
  }
  if (j.is_number_unsigned()) {
    uint64_t u = j.get<uint64_t>();
    if (u <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      *out = static_cast<int64_t>(u);
      return Error::Ok;
    }
    return invalid_program(what + ": integer " + std::to_string(u) + " does not fit in int64");
  }
  return invalid_program(what + ": expected an integer, got " + std::string(type_name(j)));
}

Error json_double(const Json& j, const std::string& what, double* out) {
  if (j.is_number()) {
    *out = j.get<double>();
    return Error::Ok;
  }
  if (j.is_string()) {
    const std::string& s = j.get_ref<const std::string&>();
    if (s == "Infinity" || s == "inf") {
      *out = std::numeric_limits<double>::infinity();
      return Error::Ok;
    }
    if (s == "-Infinity" || s == "-inf") {
      *out = -std::numeric_limits<double>::infinity();
      return Error::Ok;
    }
    if (s == "NaN" || s == "nan") {
      *out = std::numeric_limits<double>::quiet_NaN();
      return Error::Ok;
    }
    return invalid_program(what + ": expected a number, got string '" + s + "'");
  }
  return invalid_program(what + ": expected a number, got " + std::string(type_name(j)));
}

Error json_bool(const Json& j, const std::string& what, bool* out) {
  if (!j.is_boolean()) {
    return invalid_program(what + ": expected a bool, got " + std::string(type_name(j)));
  }
  *out = j.get<bool>();
  return Error::Ok;
}

Error json_string(const Json& j, const std::string& what, std::string* out) {
  if (!j.is_string()) {
    return invalid_program(what + ": expected a string, got " + std::string(type_name(j)));
  }
  *out = j.get<std::string>();
  return Error::Ok;
}

Result<std::pair<std::string, const Json*>> json_union(const Json& j, const std::string& what) {
  if (!j.is_object()) {
    return invalid_program(what + ": expected a union object, got " + std::string(type_name(j)));
  }
  const Json* found = nullptr;
  std::string key;
  bool has_as_none = false;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key() == "as_none") has_as_none = true;
    if (it->is_null()) continue;
    if (found != nullptr) {
      return invalid_program(what + ": union has two variants, '" + key + "' and '" + it.key() +
                             "'");
    }
    found = &*it;
    key = it.key();
  }
  if (found == nullptr) {
    if (has_as_none) {
      static const Json kNull;
      return std::make_pair(std::string("as_none"), &kNull);
    }
    return invalid_program(what + ": union has no variant set");
  }
  return std::make_pair(key, found);
}

}  // namespace ember::aot
