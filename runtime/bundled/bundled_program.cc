// BundledProgram; see bundled_program.h.
#include "runtime/bundled/bundled_program.h"

#include <cstring>

#include "runtime/core/diagnostics.h"
#include "runtime/executor/pte_container.h"
#include "schema/bundled_program_generated.h"

namespace ember::runtime {
namespace {

namespace bfb = ::bundled_program_flatbuffer;

const bfb::BundledProgram* as_root(const void* p) {
  return static_cast<const bfb::BundledProgram*>(p);
}

template <typename V>
size_t size_of(const V* v) {
  return v == nullptr ? 0 : v->size();
}

// "input 1" / "expected output 0" of "suite 'forward' case 3", for messages.
struct Where {
  const char* method;
  size_t test_case;
  const char* role;
  size_t index;
};

Error bad_value(const Where& w, const char* what) {
  return fail(Error::InvalidProgram, "bundled program: method '%s' case %zu %s %zu: %s", w.method,
              w.test_case, w.role, w.index, what);
}

// The tensor rules of the header: dtype, rank, sizes, dim_order, data length.
Error check_tensor(const bfb::Tensor* t, const Where& w) {
  const ScalarType dtype = static_cast<ScalarType>(t->scalar_type());
  if (!is_valid(dtype)) {
    char what[64];
    snprintf(what, sizeof(what), "unknown scalar type code %d", int(t->scalar_type()));
    return bad_value(w, what);
  }
  const size_t rank = size_of(t->sizes());
  if (rank > kMaxTensorDims) return bad_value(w, "rank above 16");
  size_t numel = 1;
  for (size_t d = 0; d < rank; ++d) {
    const int32_t s = t->sizes()->Get(flatbuffers::uoffset_t(d));
    if (s < 0) return bad_value(w, "negative size");
    if (s != 0 && numel > SIZE_MAX / size_t(s)) return bad_value(w, "element count overflows");
    numel *= size_t(s);
  }
  const size_t dims_in_order = size_of(t->dim_order());
  if (dims_in_order != 0) {
    if (dims_in_order != rank) return bad_value(w, "dim_order length differs from the rank");
    bool seen[kMaxTensorDims] = {};
    for (size_t d = 0; d < rank; ++d) {
      const uint8_t v = t->dim_order()->Get(flatbuffers::uoffset_t(d));
      if (v >= rank || seen[v]) return bad_value(w, "dim_order is not a permutation of the dims");
      seen[v] = true;
    }
  }
  const size_t element = element_size(dtype);
  if (numel > SIZE_MAX / element) return bad_value(w, "byte count overflows");
  if (size_of(t->data()) != numel * element) {
    return fail(Error::InvalidProgram,
                "bundled program: method '%s' case %zu %s %zu: %s tensor of %zu elements needs %zu "
                "data bytes, "
                "has %zu",
                w.method, w.test_case, w.role, w.index, scalar_type_name(dtype), numel,
                numel * element, size_of(t->data()));
  }
  return Error::Ok;
}

Error check_values(const flatbuffers::Vector<flatbuffers::Offset<bfb::Value>>* values, Where w) {
  for (size_t i = 0; i < size_of(values); ++i) {
    w.index = i;
    const bfb::Value* v = values->Get(flatbuffers::uoffset_t(i));
    switch (v->val_type()) {
      case bfb::ValueUnion::Tensor:
        EMBER_TRY(check_tensor(v->val_as_Tensor(), w));
        break;
      case bfb::ValueUnion::Int:
      case bfb::ValueUnion::Bool:
      case bfb::ValueUnion::Double:
        if (v->val() == nullptr) return bad_value(w, "scalar without its table");
        break;
      default:
        return bad_value(w, "unknown value kind (not Tensor, Int, Bool or Double)");
    }
  }
  return Error::Ok;
}

Error check_suites(const bfb::BundledProgram* root) {
  for (size_t s = 0; s < size_of(root->method_test_suites()); ++s) {
    const bfb::BundledMethodTestSuite* suite =
        root->method_test_suites()->Get(flatbuffers::uoffset_t(s));
    if (suite->method_name() == nullptr) {
      return fail(Error::InvalidProgram, "bundled program: test suite %zu has no method name", s);
    }
    const char* method = suite->method_name()->c_str();
    for (size_t c = 0; c < size_of(suite->test_cases()); ++c) {
      const bfb::BundledMethodTestCase* tc = suite->test_cases()->Get(flatbuffers::uoffset_t(c));
      EMBER_TRY(check_values(tc->inputs(), Where{method, c, "input", 0}));
      EMBER_TRY(check_values(tc->expected_outputs(), Where{method, c, "expected output", 0}));
    }
  }
  return Error::Ok;
}

const bfb::BundledMethodTestCase* case_at(const void* root, size_t suite, size_t test_case) {
  return as_root(root)
      ->method_test_suites()
      ->Get(flatbuffers::uoffset_t(suite))
      ->test_cases()
      ->Get(flatbuffers::uoffset_t(test_case));
}

BundledValue view(const bfb::Value* v) {
  BundledValue out;
  switch (v->val_type()) {
    case bfb::ValueUnion::Tensor: {
      const bfb::Tensor* t = v->val_as_Tensor();
      out.kind = BundledValueKind::Tensor;
      out.dtype = static_cast<ScalarType>(t->scalar_type());
      if (t->sizes() != nullptr)
        out.sizes = Span<const int32_t>(t->sizes()->data(), t->sizes()->size());
      if (t->dim_order() != nullptr)
        out.dim_order = Span<const uint8_t>(t->dim_order()->data(), t->dim_order()->size());
      if (t->data() != nullptr)
        out.data = Span<const uint8_t>(t->data()->data(), t->data()->size());
      break;
    }
    case bfb::ValueUnion::Int:
      out.kind = BundledValueKind::Int;
      out.int_value = v->val_as_Int()->int_val();
      break;
    case bfb::ValueUnion::Bool:
      out.kind = BundledValueKind::Bool;
      out.bool_value = v->val_as_Bool()->bool_val();
      break;
    default:  // Double: open() admitted nothing else
      out.kind = BundledValueKind::Double;
      out.double_value = v->val_as_Double()->double_val();
      break;
  }
  return out;
}

}  // namespace

bool BundledProgram::has_identifier(const void* data, size_t size) {
  return data != nullptr && size >= 8 &&
         std::memcmp(static_cast<const uint8_t*>(data) + 4, kBundledProgramIdentifier, 4) == 0;
}

Result<BundledProgram> BundledProgram::open(const void* data, size_t size) {
  if (data == nullptr || size < 8) {
    return fail(Error::InvalidProgram,
                "bundled program: %zu bytes, too short for a FlatBuffer (need 8)", size);
  }
  if (!has_identifier(data, size)) {
    const uint8_t* b = static_cast<const uint8_t*>(data);
    if (PteContainer::has_program_identifier(data, size)) {
      return fail(Error::InvalidProgram,
                  "this is a program (.pte, identifier 'ET12'), not a bundled program "
                  "(.bpte, 'BP08')");
    }
    char id[5] = {};
    for (int i = 0; i < 4; ++i) id[i] = (b[4 + i] >= 32 && b[4 + i] < 127) ? char(b[4 + i]) : '?';
    return fail(Error::InvalidProgram, "bundled program: bad file identifier '%s', expected '%s'",
                id, kBundledProgramIdentifier);
  }
  flatbuffers::Verifier verifier(static_cast<const uint8_t*>(data), size, /*max_depth=*/64,
                                 /*max_tables=*/10000000);
  if (!bfb::VerifyBundledProgramBuffer(verifier)) {
    return fail(Error::InvalidProgram,
                "bundled program: the BP08 FlatBuffer (%zu bytes) failed verification "
                "(truncated or corrupt)",
                size);
  }
  const bfb::BundledProgram* root = bfb::GetBundledProgram(data);
  if (size_of(root->program()) == 0) {
    return fail(Error::InvalidProgram,
                "bundled program: no inner program (the 'program' bytes are empty)");
  }
  EMBER_TRY(check_suites(root));
  BundledProgram out;
  out.root_ = root;
  return out;
}

uint32_t BundledProgram::version() const { return as_root(root_)->version(); }

Span<const uint8_t> BundledProgram::program() const {
  const auto* p = as_root(root_)->program();
  return Span<const uint8_t>(p->data(), p->size());
}

size_t BundledProgram::num_suites() const { return size_of(as_root(root_)->method_test_suites()); }

const char* BundledProgram::method_name(size_t suite) const {
  const auto* name =
      as_root(root_)->method_test_suites()->Get(flatbuffers::uoffset_t(suite))->method_name();
  return name == nullptr ? "" : name->c_str();
}

Result<size_t> BundledProgram::find_suite(const char* method) const {
  for (size_t s = 0; s < num_suites(); ++s) {
    if (std::strcmp(method_name(s), method) == 0) return s;
  }
  return fail(Error::NotFound, "bundled program: no test suite for method '%s'", method);
}

size_t BundledProgram::num_cases(size_t suite) const {
  return size_of(
      as_root(root_)->method_test_suites()->Get(flatbuffers::uoffset_t(suite))->test_cases());
}

size_t BundledProgram::num_inputs(size_t suite, size_t test_case) const {
  return size_of(case_at(root_, suite, test_case)->inputs());
}

size_t BundledProgram::num_expected_outputs(size_t suite, size_t test_case) const {
  return size_of(case_at(root_, suite, test_case)->expected_outputs());
}

BundledValue BundledProgram::input(size_t suite, size_t test_case, size_t i) const {
  return view(case_at(root_, suite, test_case)->inputs()->Get(flatbuffers::uoffset_t(i)));
}

BundledValue BundledProgram::expected_output(size_t suite, size_t test_case, size_t i) const {
  return view(case_at(root_, suite, test_case)->expected_outputs()->Get(flatbuffers::uoffset_t(i)));
}

size_t bundled_numel(const BundledValue& value) {
  size_t n = 1;
  for (int32_t s : value.sizes) n *= size_t(s);
  return n;
}

}  // namespace ember::runtime
