// SymInt / TensorMeta JSON decoding.
#include "aot/frontend/tensor_meta_json.h"

namespace ember::aot {
namespace {

Error decode_sym_list(const Json* list, const RangeMap& ranges, const std::string& what,
                       std::vector<SymInt>* out) {
  if (list == nullptr) return invalid_program(what + ": missing");
  if (!list->is_array()) return invalid_program(what + ": expected a list");
  for (size_t i = 0; i < list->size(); ++i) {
    EMBER_ASSIGN_OR_RETURN(
        SymInt s, decode_sym_int((*list)[i], ranges, what + "[" + std::to_string(i) + "]"));
    out->push_back(std::move(s));
  }
  return Error::Ok;
}

}  // namespace

Result<SymInt> decode_sym_int(const Json& j, const RangeMap& ranges, const std::string& what) {
  if (j.is_number_integer()) {  // bare int (old storage_offset)
    int64_t v;
    EMBER_TRY(json_int(j, what, &v));
    return SymInt::of(v);
  }
  EMBER_ASSIGN_OR_RETURN(auto variant, json_union(j, what));
  if (variant.first == "as_int") {
    int64_t v;
    EMBER_TRY(json_int(*variant.second, what, &v));
    return SymInt::of(v);
  }
  if (variant.first != "as_expr") {
    return invalid_program(what + ": unknown SymInt variant '" + variant.first + "'");
  }
  SymInt s;
  s.is_static = false;
  const Json& e = *variant.second;
  if (e.is_string()) {
    s.expr = e.get<std::string>();
  } else {
    EMBER_ASSIGN_OR_RETURN(const Json* text, json_require(e, "expr_str", what));
    EMBER_TRY(json_string(*text, what + ".expr_str", &s.expr));
    if (const Json* hint = json_field(e, "hint")) {
      auto h = json_union(*hint, what + ".hint");
      if (h.ok() && h->first == "as_int") {
        int64_t v;
        EMBER_TRY(json_int(*h->second, what + ".hint", &v));
        s.hint = v;
      }
    }
  }
  EMBER_ASSIGN_OR_RETURN(SymExpr expr, parse_sym_expr(s.expr));
  if (expr.kind == SymExpr::Kind::Integer) return SymInt::of(expr.value);
  s.text = expr.to_infix();
  s.range = expr.eval_range(ranges);
  return s;
}

Result<TensorSpec> decode_tensor_meta(const Json& j, const RangeMap& ranges,
                                        const std::string& what) {
  const Json* meta = &j;
  if (const Json* inner = json_field(j, "meta")) meta = inner;  // torch 2.1 TensorValue
  TensorSpec t;
  EMBER_ASSIGN_OR_RETURN(const Json* dtype, json_require(*meta, "dtype", what));
  int64_t code;
  EMBER_TRY(json_int(*dtype, what + ".dtype", &code));
  auto st = pt2_scalar_type(code);
  if (!st.ok()) return annotate(st.error(), what);
  t.dtype = st.get();
  EMBER_TRY(
      decode_sym_list(json_field(*meta, "sizes"), ranges, what + ".sizes", &t.sizes));
  if (const Json* strides = json_field(*meta, "strides")) {
    EMBER_TRY(decode_sym_list(strides, ranges, what + ".strides", &t.strides));
    if (t.strides.size() != t.sizes.size()) {
      return invalid_program(what + ": " + std::to_string(t.sizes.size()) + " sizes but " +
                             std::to_string(t.strides.size()) + " strides");
    }
  }
  for (size_t i = 0; i < t.sizes.size(); ++i) {
    if (t.sizes[i].is_static && t.sizes[i].value < 0) {
      return invalid_program(what + ": size " + std::to_string(i) + " is negative (" +
                             std::to_string(t.sizes[i].value) + ")");
    }
  }
  if (t.sizes.size() > 255)
    return invalid_program(what + ": rank " + std::to_string(t.sizes.size()) + " is too large");
  if (const Json* off = json_field(*meta, "storage_offset")) {
    EMBER_ASSIGN_OR_RETURN(SymInt o, decode_sym_int(*off, ranges, what + ".storage_offset"));
    t.storage_offset = o.is_static ? o.value : 0;
  }
  if (const Json* rg = json_field(*meta, "requires_grad")) {
    EMBER_TRY(json_bool(*rg, what + ".requires_grad", &t.requires_grad));
  }
  if (const Json* layout = json_field(*meta, "layout")) {
    int64_t l;
    EMBER_TRY(json_int(*layout, what + ".layout", &l));
    if (l != 7)
      return not_supported(what + ": layout " + std::to_string(l) +
                           " (only strided, 7, is supported)");
  }
  t.dim_order = dim_order_from_strides(t.sizes, t.strides);
  return t;
}

}  // namespace ember::aot
