// Schema conformance: every real .pte in ../shared/fixtures/executorch-pte (written by
// upstream ExecuTorch) must pass the FlatBuffers verifier with *our* schema, and the
// fields we read back must equal those in catalog.json, which was produced
// independently (flatc with upstream's schema). The .bpte's inner program counts too.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "schema/program_generated.h"
#include "tests/support/shared_fixtures.h"

namespace fb = executorch_flatbuffer;
using nlohmann::json;

namespace {

uint32_t le32(const uint8_t* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
uint64_t le64(const uint8_t* p) { return uint64_t(le32(p)) | uint64_t(le32(p + 4)) << 32; }

std::string fixtures_dir() {
  const std::string shared = ember::testing::shared_dir();
  return shared.empty() ? shared : shared + "/fixtures/executorch-pte";
}

// The value a catalog "inputs"/"outputs" entry describes, rendered the same way.
std::string describe_tensor(const fb::Tensor* t) {
  std::string s = fb::EnumNameScalarType(t->scalar_type());
  s += "[";
  for (size_t i = 0; t->sizes() != nullptr && i < t->sizes()->size(); ++i) {
    if (i > 0) s += ", ";
    s += std::to_string(t->sizes()->Get(i));
  }
  s += "]";
  bool contiguous = true;
  std::string order = " dim_order=[";
  for (size_t i = 0; t->dim_order() != nullptr && i < t->dim_order()->size(); ++i) {
    if (t->dim_order()->Get(i) != i) contiguous = false;
    if (i > 0) order += ", ";
    order += std::to_string(t->dim_order()->Get(i));
  }
  if (!contiguous) s += order + "]";
  if (t->shape_dynamism() != fb::TensorShapeDynamism::STATIC) {
    s += std::string("/") + fb::EnumNameTensorShapeDynamism(t->shape_dynamism());
  }
  return s;
}

// Compares one catalog I/O entry with the value at `index`.
void expect_io(const std::string& expected, const fb::ExecutionPlan* plan, int32_t index,
               const std::string& where) {
  ASSERT_GE(index, 0) << where;
  ASSERT_LT(size_t(index), plan->values()->size()) << where;
  const fb::EValue* v = plan->values()->Get(index);
  switch (v->val_type()) {
    case fb::KernelTypes::Tensor:
      EXPECT_EQ(describe_tensor(v->val_as_Tensor()), expected) << where;
      return;
    case fb::KernelTypes::Int:
      EXPECT_EQ("Int(" + std::to_string(v->val_as_Int()->int_val()) + ")", expected) << where;
      return;
    case fb::KernelTypes::Bool:
      EXPECT_EQ(v->val_as_Bool()->bool_val() ? "Bool(True)" : "Bool(False)", expected) << where;
      return;
    case fb::KernelTypes::String:
      EXPECT_EQ("String('" + v->val_as_String()->string_val()->str() + "')", expected) << where;
      return;
    case fb::KernelTypes::Double: {
      ASSERT_EQ(expected.rfind("Double(", 0), 0u) << where << ": " << expected;
      const double want = std::strtod(expected.c_str() + 7, nullptr);
      const double got = v->val_as_Double()->double_val();
      EXPECT_NEAR(got, want, 1e-11 * std::max(1.0, std::fabs(want))) << where;
      return;
    }
    default:
      ADD_FAILURE() << where << ": unexpected value kind "
                    << fb::EnumNameKernelTypes(v->val_type()) << " for " << expected;
  }
}

void check_plan(const json& want, const fb::ExecutionPlan* plan, const fb::Program* program,
                const std::string& file) {
  const std::string where = file + " method " + want["name"].get<std::string>();
  ASSERT_NE(plan->name(), nullptr) << where;
  EXPECT_EQ(plan->name()->str(), want["name"].get<std::string>()) << where;
  ASSERT_NE(plan->values(), nullptr) << where;
  EXPECT_EQ(plan->values()->size(), want["num_values"].get<size_t>()) << where;

  std::map<std::string, int> kinds;
  std::set<std::string> dtypes, dynamism;
  for (const fb::EValue* v : *plan->values()) {
    kinds[fb::EnumNameKernelTypes(v->val_type())]++;
    if (const fb::Tensor* t = v->val_as_Tensor()) {
      dtypes.insert(fb::EnumNameScalarType(t->scalar_type()));
      if (t->shape_dynamism() != fb::TensorShapeDynamism::STATIC) {
        dynamism.insert(fb::EnumNameTensorShapeDynamism(t->shape_dynamism()));
      }
    }
  }
  EXPECT_EQ(kinds, want["value_types"].get<decltype(kinds)>()) << where;
  EXPECT_EQ(dtypes, want["scalar_types"].get<std::set<std::string>>()) << where;
  EXPECT_EQ(dynamism, want["dynamic"].get<std::set<std::string>>()) << where;

  ASSERT_NE(plan->inputs(), nullptr) << where;
  ASSERT_NE(plan->outputs(), nullptr) << where;
  ASSERT_EQ(plan->inputs()->size(), want["inputs"].size()) << where;
  for (size_t i = 0; i < want["inputs"].size(); ++i) {
    expect_io(want["inputs"][i], plan, plan->inputs()->Get(i), where + " input " + std::to_string(i));
  }
  ASSERT_EQ(plan->outputs()->size(), want["outputs"].size()) << where;
  for (size_t i = 0; i < want["outputs"].size(); ++i) {
    expect_io(want["outputs"][i], plan, plan->outputs()->Get(i),
              where + " output " + std::to_string(i));
  }

  std::vector<std::string> ops;
  if (plan->operators() != nullptr) {
    for (const fb::Operator* op : *plan->operators()) {
      std::string key = op->name()->str();
      if (op->overload() != nullptr && op->overload()->size() > 0) key += "." + op->overload()->str();
      ops.push_back(key);
    }
  }
  EXPECT_EQ(ops, want["operators"].get<std::vector<std::string>>()) << where;

  ASSERT_NE(plan->delegates(), nullptr) << where;
  ASSERT_EQ(plan->delegates()->size(), want["delegates"].size()) << where;
  for (size_t i = 0; i < want["delegates"].size(); ++i) {
    const json& wd = want["delegates"][i];
    const fb::BackendDelegate* d = plan->delegates()->Get(i);
    EXPECT_EQ(d->id()->str(), wd["id"].get<std::string>()) << where;
    EXPECT_STREQ(fb::EnumNameDataLocation(d->processed()->location()),
                 wd["processed"]["location"].get<std::string>().c_str())
        << where;
    EXPECT_EQ(d->processed()->index(), wd["processed"]["index"].get<uint32_t>()) << where;
    std::vector<std::string> keys;
    if (d->compile_specs() != nullptr) {
      for (const fb::CompileSpec* cs : *d->compile_specs()) keys.push_back(cs->key()->str());
    }
    EXPECT_EQ(keys, wd["compile_spec_keys"].get<std::vector<std::string>>()) << where;
  }

  ASSERT_NE(plan->non_const_buffer_sizes(), nullptr) << where;
  std::vector<int64_t> sizes(plan->non_const_buffer_sizes()->begin(),
                             plan->non_const_buffer_sizes()->end());
  EXPECT_EQ(sizes, want["non_const_buffer_sizes"].get<std::vector<int64_t>>()) << where;

  size_t num_instructions = 0;
  std::map<std::string, int> instr_kinds;
  ASSERT_NE(plan->chains(), nullptr) << where;
  for (const fb::Chain* chain : *plan->chains()) {
    ASSERT_NE(chain->instructions(), nullptr) << where;
    for (const fb::Instruction* ins : *chain->instructions()) {
      ++num_instructions;
      instr_kinds[fb::EnumNameInstructionArguments(ins->instr_args_type())]++;
    }
  }
  EXPECT_EQ(num_instructions, want["num_instructions"].get<size_t>()) << where;
  EXPECT_EQ(instr_kinds, want["instr_types"].get<decltype(instr_kinds)>()) << where;
  (void)program;
}

// Checks one program image (a whole .pte, or the program inside a .bpte).
void check_program(const json& entry, const uint8_t* data, size_t size, const std::string& file) {
  ASSERT_GE(size, 8u) << file;
  ASSERT_EQ(std::string(reinterpret_cast<const char*>(data) + 4, 4), "ET12") << file;

  // Extended header.
  size_t flatbuffer_size = size;
  const json& header = entry["extended_header"];
  const bool has_header = size >= 40 && std::memcmp(data + 8, "eh00", 4) == 0;
  ASSERT_EQ(has_header, !header.is_null()) << file;
  if (has_header) {
    const uint32_t length = le32(data + 12);
    EXPECT_EQ(length, header["length"].get<uint32_t>()) << file;
    const uint64_t program_size = le64(data + 16);
    EXPECT_EQ(program_size, header["program_size"].get<uint64_t>()) << file;
    EXPECT_EQ(le64(data + 24), header["segment_base_offset"].get<uint64_t>()) << file;
    if (length >= 32) {
      EXPECT_EQ(le64(data + 32), header["segment_data_size"].get<uint64_t>()) << file;
    } else {
      EXPECT_FALSE(header.contains("segment_data_size")) << file;
    }
    ASSERT_LE(program_size, size) << file;
    flatbuffer_size = size_t(program_size);
  }

  flatbuffers::Verifier verifier(data, flatbuffer_size);
  ASSERT_TRUE(fb::VerifyProgramBuffer(verifier)) << file << ": verifier rejected the program";
  ASSERT_TRUE(fb::ProgramBufferHasIdentifier(data)) << file;
  const fb::Program* program = fb::GetProgram(data);

  std::vector<std::pair<uint64_t, uint64_t>> segments;
  if (program->segments() != nullptr) {
    for (const fb::DataSegment* s : *program->segments()) segments.emplace_back(s->offset(), s->size());
  }
  EXPECT_EQ(segments, (entry["segments"].get<std::vector<std::pair<uint64_t, uint64_t>>>())) << file;

  const size_t constant_buffer_len =
      program->constant_buffer() == nullptr ? 0 : program->constant_buffer()->size();
  EXPECT_EQ(constant_buffer_len, entry["constant_buffer_len"].get<size_t>()) << file;

  const json& cs = entry["constant_segment"];
  const fb::SubsegmentOffsets* constant_segment = program->constant_segment();
  const uint32_t cs_index = constant_segment == nullptr ? 0 : constant_segment->segment_index();
  const size_t cs_offsets = constant_segment == nullptr || constant_segment->offsets() == nullptr
                                ? 0
                                : constant_segment->offsets()->size();
  EXPECT_EQ(cs_index, cs["segment_index"].get<uint32_t>()) << file;
  EXPECT_EQ(cs_offsets, cs["n_offsets"].get<size_t>()) << file;

  std::vector<std::pair<std::string, uint32_t>> named;
  if (program->named_data() != nullptr) {
    for (const fb::NamedData* nd : *program->named_data()) {
      named.emplace_back(nd->key()->str(), nd->segment_index());
    }
  }
  EXPECT_EQ(named, (entry["named_data"].get<std::vector<std::pair<std::string, uint32_t>>>()))
      << file;

  const json& mds = entry["mutable_data_segments"];
  if (mds.is_null() || mds.empty()) {
    EXPECT_TRUE(program->mutable_data_segments() == nullptr ||
                program->mutable_data_segments()->size() == 0)
        << file;
  } else {
    ASSERT_NE(program->mutable_data_segments(), nullptr) << file;
    ASSERT_EQ(program->mutable_data_segments()->size(), mds.size()) << file;
    for (size_t i = 0; i < mds.size(); ++i) {
      const fb::SubsegmentOffsets* m = program->mutable_data_segments()->Get(i);
      EXPECT_EQ(m->segment_index(), mds[i]["segment_index"].get<uint32_t>()) << file;
      std::vector<uint64_t> offsets(m->offsets()->begin(), m->offsets()->end());
      EXPECT_EQ(offsets, mds[i]["offsets"].get<std::vector<uint64_t>>()) << file;
    }
  }

  const json& plans = entry["plans"];
  ASSERT_NE(program->execution_plan(), nullptr) << file;
  ASSERT_EQ(program->execution_plan()->size(), plans.size()) << file;
  for (size_t i = 0; i < plans.size(); ++i) {
    check_plan(plans[i], program->execution_plan()->Get(i), program, file);
  }

  // Delegate blob sizes: [method, backend id, location, index, size, ...].
  if (entry["delegate_blobs"].is_array()) {
    for (const json& blob : entry["delegate_blobs"]) {
      const std::string location = blob[2];
      const uint32_t index = blob[3];
      const uint64_t blob_size = blob[4];
      if (location == "SEGMENT") {
        ASSERT_LT(index, segments.size()) << file;
        EXPECT_EQ(segments[index].second, blob_size) << file;
      } else {
        ASSERT_NE(program->backend_delegate_data(), nullptr) << file;
        ASSERT_LT(index, program->backend_delegate_data()->size()) << file;
        EXPECT_EQ(program->backend_delegate_data()->Get(index)->data()->size(), blob_size) << file;
      }
    }
  }
}

// A BundledProgram ("BP08") keeps the whole .pte in its root table's slot 2
// ([ubyte] program). Reads it with the generic table accessor.
bool bundled_inner_program(const std::vector<uint8_t>& bytes, const uint8_t** data, size_t* size) {
  if (bytes.size() < 8 || std::memcmp(bytes.data() + 4, "BP08", 4) != 0) return false;
  flatbuffers::Verifier verifier(bytes.data(), bytes.size());
  const auto* root = flatbuffers::GetRoot<flatbuffers::Table>(bytes.data());
  constexpr flatbuffers::voffset_t kProgramSlot = 4 + 2 * 2;
  if (!root->VerifyTableStart(verifier) ||
      !root->VerifyOffset(verifier, kProgramSlot)) {
    return false;
  }
  const auto* program = root->GetPointer<const flatbuffers::Vector<uint8_t>*>(kProgramSlot);
  if (program == nullptr || !verifier.VerifyVector(program)) return false;
  *data = program->data();
  *size = program->size();
  return true;
}

TEST(ProgramConformance, EveryFixtureMatchesCatalog) {
  const std::string dir = fixtures_dir();
  if (dir.empty()) GTEST_SKIP() << ember::testing::skip_message();
  std::vector<uint8_t> catalog_bytes;
  ASSERT_TRUE(ember::testing::read_file(dir + "/catalog.json", &catalog_bytes));
  const json catalog = json::parse(catalog_bytes.begin(), catalog_bytes.end());

  std::set<std::string> on_disk;
  for (const std::string& f : ember::testing::list_files(dir, ".pte")) on_disk.insert(f);
  for (const std::string& f : ember::testing::list_files(dir, ".bpte")) on_disk.insert(f);

  size_t checked = 0;
  for (const json& entry : catalog) {
    const std::string file = entry["file"];
    if (entry.value("kind", "") == "ptd") continue;
    on_disk.erase(file);
    std::vector<uint8_t> bytes;
    ASSERT_TRUE(ember::testing::read_file(dir + "/" + file, &bytes)) << file;
    EXPECT_EQ(bytes.size(), entry["size"].get<size_t>()) << file;
    if (entry["identifier"] == "BP08") {
      const uint8_t* inner = nullptr;
      size_t inner_size = 0;
      ASSERT_TRUE(bundled_inner_program(bytes, &inner, &inner_size)) << file;
      EXPECT_EQ(inner_size, entry["bundled"]["program_size"].get<size_t>()) << file;
      check_program(entry, inner, inner_size, file + " (inner program)");
    } else {
      check_program(entry, bytes.data(), bytes.size(), file);
    }
    ++checked;
  }
  EXPECT_TRUE(on_disk.empty()) << "fixtures missing from catalog.json: " << *on_disk.begin();
  EXPECT_EQ(checked, 44u) << "43 .pte files and one .bpte";
}

}  // namespace
