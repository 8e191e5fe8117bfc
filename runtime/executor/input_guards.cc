// Reading and checking input guards (see input_guards.h). load_input_guards finds
// `__ember_guards__<method>`, checks the table's shape (only Int outputs, version,
// count, length) and every record against the method's inputs, and keeps the records
// in the method allocator. The checks are used by set_input (MinSize) and execute
// (EqualSize).
#include "runtime/executor/input_guards.h"

#include <cstring>
#include <string_view>

#include "runtime/executor/method_state.h"

namespace ember::runtime {

namespace internal {
namespace {

// The plan called kGuardMethodPrefix + `method`, or null.
const fb::ExecutionPlan* find_guard_plan(const fb::Program* program, const char* method) {
  const auto* plans = program->execution_plan();
  if (plans == nullptr) return nullptr;
  const std::string_view prefix(kGuardMethodPrefix, kGuardMethodPrefixLength);
  for (const fb::ExecutionPlan* p : *plans) {
    const std::string_view name(plan_name(p));
    if (name.size() > prefix.size() && name.substr(0, prefix.size()) == prefix &&
        name.substr(prefix.size()) == method) {
      return p;
    }
  }
  return nullptr;
}

// Output k of the guard plan, which must be an Int value.
Error guard_int(const fb::ExecutionPlan* g, size_t k, int64_t* out) {
  const int32_t index = g->outputs()->Get(flatbuffers::uoffset_t(k));
  const size_t num_values = size_of(g->values());
  const fb::EValue* v =
      index >= 0 && size_t(index) < num_values ? g->values()->Get(flatbuffers::uoffset_t(index)) : nullptr;
  const fb::Int* i = v == nullptr ? nullptr : v->val_as_Int();
  if (i == nullptr) {
    return fail(Error::InvalidProgram, "guard table '%s': output %zu (value %d) is not an Int value",
                plan_name(g), k, index);
  }
  *out = i->int_val();
  return Error::Ok;
}

// The declared sizes of tensor input `i` (null if input i is not a tensor).
const flatbuffers::Vector<int32_t>* input_sizes(const MethodState* s, int64_t i) {
  if (i < 0 || size_t(i) >= s->num_inputs) return nullptr;
  const fb::Tensor* t = s->plan->values()->Get(flatbuffers::uoffset_t(s->inputs[i]))->val_as_Tensor();
  return t == nullptr ? nullptr : t->sizes();
}

// Checks that (input, dim) names a dim of a tensor input.
Error check_input_dim(const MethodState* s, const char* table, size_t r, const char* what, int64_t input,
                      int64_t dim) {
  const flatbuffers::Vector<int32_t>* sizes = input_sizes(s, input);
  if (sizes == nullptr) {
    return fail(Error::InvalidProgram,
                "guard table '%s' record %zu: %s %lld is not a tensor input (method '%s' has %zu inputs)",
                table, r, what, static_cast<long long>(input), s->name, s->num_inputs);
  }
  if (dim < 0 || size_t(dim) >= sizes->size()) {
    return fail(Error::InvalidProgram, "guard table '%s' record %zu: %s %lld has no dim %lld (rank %u)",
                table, r, what, static_cast<long long>(input), static_cast<long long>(dim),
                sizes->size());
  }
  return Error::Ok;
}

bool fits_int32(int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; }

// Validates the DerivedSize record `r` (ints v) and its coefficients w (record r + 1).
Error parse_derived(const MethodState* s, const char* table, size_t r, const int64_t* v, const int64_t* w,
                    InputGuard* out) {
  if (w == nullptr || w[0] != int64_t(InputGuardKind::DerivedCoefficients)) {
    return fail(Error::InvalidProgram,
                "guard table '%s' record %zu: a derived size must be followed by its coefficients "
                "(kind 4)", table, r);
  }
  if (v[3] != -1) EMBER_TRY(check_input_dim(s, table, r, "reference input", v[3], v[4]));
  if (w[1] <= 0 || !fits_int32(w[1]) || !fits_int32(w[2]) || w[3] < 0 || !fits_int32(w[3])) {
    return fail(Error::InvalidProgram,
                "guard table '%s' record %zu: derived size coefficients mul %lld, add %lld, min %lld "
                "are out of range", table, r + 1, static_cast<long long>(w[1]),
                static_cast<long long>(w[2]), static_cast<long long>(w[3]));
  }
  out->kind = InputGuardKind::DerivedSize;
  out->a = int32_t(v[3]);
  out->b = int32_t(v[3] == -1 ? 0 : v[4]);
  out->mul = int32_t(w[1]);
  out->add = int32_t(w[2]);
  out->min = int32_t(w[3]);
  return Error::Ok;
}

// Validates the SymbolBound record `r`: a dim of a tensor value, a symbol number and a bound.
Error parse_symbol_bound(const MethodState* s, const char* table, size_t r, const int64_t* v, InputGuard* out) {
  const size_t num_values = size_of(s->plan->values());
  const fb::Tensor* t = v[1] >= 0 && size_t(v[1]) < num_values
                            ? s->plan->values()->Get(flatbuffers::uoffset_t(v[1]))->val_as_Tensor()
                            : nullptr;
  if (t == nullptr || t->sizes() == nullptr || v[2] < 0 || size_t(v[2]) >= t->sizes()->size() || v[3] < 0 ||
      !fits_int32(v[3]) || v[4] < 0 || !fits_int32(v[4])) {
    return fail(Error::InvalidProgram,
                "guard table '%s' record %zu: symbol bound (value %lld dim %lld, u%lld <= %lld) does not "
                "name a dim of a tensor value of method '%s' (%zu values)",
                table, r, static_cast<long long>(v[1]), static_cast<long long>(v[2]),
                static_cast<long long>(v[3]), static_cast<long long>(v[4]), s->name, num_values);
  }
  out->kind = InputGuardKind::SymbolBound;
  out->input = uint32_t(v[1]);
  out->dim = uint32_t(v[2]);
  out->a = int32_t(v[3]);
  out->b = int32_t(v[4]);
  return Error::Ok;
}

// Validates record `r` (ints v[0..4]; w: the next record or nullptr) and fills `out`.
Error parse_record(const MethodState* s, const char* table, size_t r, const int64_t* v, const int64_t* w,
                   InputGuard* out) {
  if (v[0] == int64_t(InputGuardKind::DerivedCoefficients)) {
    out->kind = InputGuardKind::DerivedCoefficients;  // validated with its DerivedSize record
    return Error::Ok;
  }
  if (v[0] == int64_t(InputGuardKind::SymbolBound)) return parse_symbol_bound(s, table, r, v, out);
  EMBER_TRY(check_input_dim(s, table, r, "input", v[1], v[2]));
  out->input = uint32_t(v[1]);
  out->dim = uint32_t(v[2]);
  if (v[0] == int64_t(InputGuardKind::MinSize)) {
    const int32_t bound = input_sizes(s, v[1])->Get(flatbuffers::uoffset_t(v[2]));
    if (v[3] < 0 || v[3] > bound) {
      return fail(Error::InvalidProgram,
                  "guard table '%s' record %zu: minimum %lld for input %lld dim %lld is outside [0, %d] "
                  "(the dim's upper bound)",
                  table, r, static_cast<long long>(v[3]), static_cast<long long>(v[1]),
                  static_cast<long long>(v[2]), bound);
    }
    out->kind = InputGuardKind::MinSize;
    out->a = int32_t(v[3]);
    return Error::Ok;
  }
  if (v[0] == int64_t(InputGuardKind::EqualSize)) {
    EMBER_TRY(check_input_dim(s, table, r, "reference input", v[3], v[4]));
    if (v[1] == v[3] && v[2] == v[4]) {
      return fail(Error::InvalidProgram, "guard table '%s' record %zu: input %lld dim %lld equals itself",
                  table, r, static_cast<long long>(v[1]), static_cast<long long>(v[2]));
    }
    out->kind = InputGuardKind::EqualSize;
    out->a = int32_t(v[3]);
    out->b = int32_t(v[4]);
    return Error::Ok;
  }
  if (v[0] == int64_t(InputGuardKind::DerivedSize)) {
    out->input = uint32_t(v[1]);
    out->dim = uint32_t(v[2]);
    return parse_derived(s, table, r, v, w, out);
  }
  return fail(Error::InvalidProgram,
              "guard table '%s' record %zu: unknown kind %lld (known: 1 min, 2 equal, 3 derived, "
              "4 its coefficients, 5 symbol bound)",
              table, r, static_cast<long long>(v[0]));
}

// Checks version, count and length; returns the record count in *count.
Error check_table_header(const fb::ExecutionPlan* g, size_t* count) {
  const char* table = plan_name(g);
  if (size_of(g->inputs()) != 0) {
    return fail(Error::InvalidProgram, "guard table '%s' takes %u input(s), expected none", table,
                g->inputs()->size());
  }
  const size_t n = size_of(g->outputs());
  if (n < 2) {
    return fail(Error::InvalidProgram, "guard table '%s' is truncated: %zu value(s), need at least 2 "
                "(version, count)", table, n);
  }
  int64_t version = 0, records = 0;
  EMBER_TRY(guard_int(g, 0, &version));
  EMBER_TRY(guard_int(g, 1, &records));
  if (version != kGuardTableVersion) {
    return fail(Error::InvalidProgram, "guard table '%s' has version %lld, this runtime reads version %lld",
                table, static_cast<long long>(version), static_cast<long long>(kGuardTableVersion));
  }
  if (records < 0 || uint64_t(records) > kMaxInputGuards) {
    return fail(records < 0 ? Error::InvalidProgram : Error::OutOfResources,
                "guard table '%s' has %lld records, at most %zu are supported", table,
                static_cast<long long>(records), kMaxInputGuards);
  }
  if (n != 2 + kGuardRecordInts * size_t(records)) {
    return fail(Error::InvalidProgram, "guard table '%s' has %zu values, %lld records need %zu%s", table, n,
                static_cast<long long>(records), 2 + kGuardRecordInts * size_t(records),
                n < 2 + kGuardRecordInts * size_t(records) ? " (truncated)" : "");
  }
  *count = size_t(records);
  return Error::Ok;
}

}  // namespace

Error load_input_guards(LoadContext& ctx) {
  MethodState* s = ctx.state;
  const fb::ExecutionPlan* g = find_guard_plan(as_program(ctx.program.flatbuffer_root()), s->name);
  if (g == nullptr) return Error::Ok;
  size_t count = 0;
  EMBER_TRY(check_table_header(g, &count));
  EMBER_TRY(allocate_array(ctx.memory->method_allocator(), count, "input guards", &s->guards));
  for (size_t r = 0; r < count; ++r) {
    int64_t v[kGuardRecordInts], w[kGuardRecordInts];
    for (size_t k = 0; k < kGuardRecordInts; ++k) EMBER_TRY(guard_int(g, 2 + r * kGuardRecordInts + k, &v[k]));
    const bool derived = v[0] == int64_t(InputGuardKind::DerivedSize) && r + 1 < count;
    for (size_t k = 0; derived && k < kGuardRecordInts; ++k) {
      EMBER_TRY(guard_int(g, 2 + (r + 1) * kGuardRecordInts + k, &w[k]));
    }
    EMBER_TRY(parse_record(s, plan_name(g), r, v, derived ? w : nullptr, &s->guards[r]));
    if (v[0] == int64_t(InputGuardKind::DerivedCoefficients) &&
        (r == 0 || s->guards[r - 1].kind != InputGuardKind::DerivedSize)) {
      return fail(Error::InvalidProgram,
                  "guard table '%s' record %zu: coefficients (kind 4) without a derived size before them",
                  plan_name(g), r);
    }
  }
  s->num_guards = count;
  return Error::Ok;
}

int32_t guard_min(const MethodState* s, size_t input, size_t dim) {
  int32_t min = 0;
  for (size_t r = 0; r < s->num_guards; ++r) {
    const InputGuard& g = s->guards[r];
    if (g.kind == InputGuardKind::MinSize && g.input == input && g.dim == dim && g.a > min) min = g.a;
  }
  return min;
}

Error check_derived_guard(const MethodState* s, const InputGuard& g) {
  const int64_t size = s->values[s->inputs[g.input]].to_tensor().size(g.dim);
  if (g.a >= 0) {
    const int64_t root = s->values[s->inputs[size_t(g.a)]].to_tensor().size(size_t(g.b));
    const int64_t want = int64_t(g.mul) * root + g.add;
    if (size == want) return Error::Ok;
    return fail(Error::InvalidArgument,
                "input %u of method '%s': dim %u is %lld, but the export derives it as %d*s%+d with "
                "s = input %d dim %d = %lld, i.e. %lld (derived size from export)",
                g.input, s->name, g.dim, static_cast<long long>(size), g.mul, g.add, g.a, g.b,
                static_cast<long long>(root), static_cast<long long>(want));
  }
  const int64_t rest = size - g.add;
  if (rest % g.mul == 0 && rest / g.mul >= g.min) return Error::Ok;
  return fail(Error::InvalidArgument,
              "input %u of method '%s': dim %u is %lld, but the export derives it as %d*s%+d with "
              "s >= %d (derived size from export)",
              g.input, s->name, g.dim, static_cast<long long>(size), g.mul, g.add, g.min);
}

Error check_derived_guards_of(const MethodState* s, size_t input) {
  for (size_t r = 0; r < s->num_guards; ++r) {
    const InputGuard& g = s->guards[r];
    if (g.kind != InputGuardKind::DerivedSize) continue;
    if (g.input != input && (g.a < 0 || size_t(g.a) != input)) continue;
    // The other input counts only when set since the last execute: an input left from the
    // previous run may be about to be replaced (execute checks every guard anyway).
    const bool self_set = g.input == input || s->input_fresh[g.input];
    const bool ref_set = g.a < 0 || size_t(g.a) == input || s->input_fresh[size_t(g.a)];
    if (self_set && ref_set) EMBER_TRY(check_derived_guard(s, g));
  }
  return Error::Ok;
}

Error check_equal_guards(const MethodState* s) {
  for (size_t r = 0; r < s->num_guards; ++r) {
    const InputGuard& g = s->guards[r];
    if (g.kind != InputGuardKind::EqualSize) continue;
    const int32_t size = s->values[s->inputs[g.input]].to_tensor().size(g.dim);
    const int32_t other = s->values[s->inputs[g.a]].to_tensor().size(size_t(g.b));
    if (size != other) {
      return fail(Error::InvalidArgument,
                  "input %u of method '%s': dim %u is %d but must equal input %d dim %d (%d) (equality "
                  "constraint from export)",
                  g.input, s->name, g.dim, size, g.a, g.b, other);
    }
  }
  for (size_t r = 0; r < s->num_guards; ++r) {
    if (s->guards[r].kind == InputGuardKind::DerivedSize) EMBER_TRY(check_derived_guard(s, s->guards[r]));
  }
  return Error::Ok;
}

Error name_symbol_bound(const MethodState* s, const PreparedInstruction& in, Error err) {
  for (size_t r = 0; r < s->num_guards; ++r) {
    const InputGuard& g = s->guards[r];
    if (g.kind != InputGuardKind::SymbolBound) continue;
    for (size_t k = 0; k < in.num_args; ++k) {
      if (in.args[k] != &s->values[g.input]) continue;
      return annotate(err,
                      "argument %zu dim %u is the data-dependent size u%d, planned at its bound %d "
                      "(a larger value needs lower --max_dim u%d=N)",
                      k, g.dim, g.a, g.b, g.a);
    }
  }
  return err;
}

}  // namespace internal
}  // namespace ember::runtime
