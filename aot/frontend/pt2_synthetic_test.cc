// A hand-written PT2 archive (torch >= 2.9 layout) exercising what the generated fixtures
// lack: a tied weight stored once and viewed transposed (two FQNs on one path_name,
// strides [1, 3]), a non-persistent buffer and a lifted tensor constant read from the
// constants payload, a zero-length record (tensor of zeros), an open-ended dynamic dim,
// old-style infix expressions, sym_size/SymInt arguments and a buffer mutation.
// Expected bytes and shapes are worked out by hand in the comments.
#include <gtest/gtest.h>

#include <cstring>

#include "aot/frontend/pt2_reader.h"
#include "aot/frontend/zip_test_util.h"

namespace ember::aot {
namespace {

using testing::as_bytes;

constexpr const char* kModel = R"JSON({
 "schema_version": {"major": 8, "minor": 5}, "torch_version": "2.9.0", "verifiers": ["ATEN"],
 "range_constraints": {"s0": {"min_val": 2, "max_val": null}},
 "graph_module": {
  "graph": {
   "inputs": [{"as_tensor": {"name": "p_w"}}, {"as_tensor": {"name": "p_wt"}},
              {"as_tensor": {"name": "b_nb"}}, {"as_tensor": {"name": "c_k"}},
              {"as_tensor": {"name": "x"}}],
   "nodes": [
    {"target": "torch.ops.aten.sym_size.int",
     "inputs": [{"name": "self", "arg": {"as_tensor": {"name": "x"}}}, {"name": "dim", "arg": {"as_int": 0}}],
     "outputs": [{"as_sym_int": {"as_name": "sym_size_int"}}], "metadata": {}},
    {"target": "torch.ops.aten.mm.default",
     "inputs": [{"name": "self", "arg": {"as_tensor": {"name": "x"}}}, {"name": "mat2", "arg": {"as_tensor": {"name": "p_wt"}}}],
     "outputs": [{"as_tensor": {"name": "mm"}}],
     "metadata": {"stack_trace": "File \"net.py\", line 7, in forward\n    y = x @ self.wt"}},
    {"target": "torch.ops.aten.view.default",
     "inputs": [{"name": "self", "arg": {"as_tensor": {"name": "mm"}}},
                {"name": "size", "arg": {"as_sym_ints": [{"as_name": "sym_size_int"}, {"as_int": -1}]}}],
     "outputs": [{"as_tensor": {"name": "view"}}], "metadata": {}},
    {"target": "torch.ops.aten.add.Tensor",
     "inputs": [{"name": "self", "arg": {"as_tensor": {"name": "b_nb"}}}, {"name": "other", "arg": {"as_int": 1}}],
     "outputs": [{"as_tensor": {"name": "add"}}], "metadata": {}}
   ],
   "outputs": [{"as_tensor": {"name": "add"}}, {"as_tensor": {"name": "view"}}],
   "tensor_values": {
    "p_w": {"dtype": 7, "sizes": [{"as_int": 2}, {"as_int": 3}], "strides": [{"as_int": 3}, {"as_int": 1}], "storage_offset": {"as_int": 0}, "requires_grad": true, "device": {"type": "cpu"}, "layout": 7},
    "p_wt": {"dtype": 7, "sizes": [{"as_int": 3}, {"as_int": 2}], "strides": [{"as_int": 1}, {"as_int": 3}], "storage_offset": {"as_int": 0}, "requires_grad": true, "device": {"type": "cpu"}, "layout": 7},
    "b_nb": {"dtype": 7, "sizes": [{"as_int": 2}], "strides": [{"as_int": 1}], "storage_offset": {"as_int": 0}, "requires_grad": false, "device": {"type": "cpu"}, "layout": 7},
    "c_k": {"dtype": 5, "sizes": [{"as_int": 2}], "strides": [{"as_int": 1}], "storage_offset": {"as_int": 0}, "requires_grad": false, "device": {"type": "cpu"}, "layout": 7},
    "x": {"dtype": 7, "sizes": [{"as_expr": {"expr_str": "s0", "hint": {"as_int": 4}}}, {"as_int": 3}], "strides": [{"as_int": 3}, {"as_int": 1}], "storage_offset": {"as_int": 0}, "requires_grad": false, "device": {"type": "cpu"}, "layout": 7},
    "mm": {"dtype": 7, "sizes": [{"as_expr": {"expr_str": "s0"}}, {"as_int": 2}], "strides": [{"as_int": 2}, {"as_int": 1}], "storage_offset": {"as_int": 0}, "requires_grad": false, "device": {"type": "cpu"}, "layout": 7},
    "view": {"dtype": 7, "sizes": [{"as_expr": {"expr_str": "s0"}}, {"as_int": 2}], "strides": [{"as_int": 2}, {"as_int": 1}], "storage_offset": {"as_int": 0}, "requires_grad": false, "device": {"type": "cpu"}, "layout": 7},
    "add": {"dtype": 7, "sizes": [{"as_int": 2}], "strides": [{"as_int": 1}], "storage_offset": {"as_int": 0}, "requires_grad": false, "device": {"type": "cpu"}, "layout": 7}
   },
   "sym_int_values": {"sym_size_int": {"as_expr": {"expr_str": "s0", "hint": {"as_int": 4}}}}
  },
  "signature": {
   "input_specs": [
    {"parameter": {"arg": {"name": "p_w"}, "parameter_name": "w"}},
    {"parameter": {"arg": {"name": "p_wt"}, "parameter_name": "wt"}},
    {"buffer": {"arg": {"name": "b_nb"}, "buffer_name": "nb", "persistent": false}},
    {"tensor_constant": {"arg": {"name": "c_k"}, "tensor_constant_name": "k"}},
    {"user_input": {"arg": {"as_tensor": {"name": "x"}}}}],
   "output_specs": [
    {"buffer_mutation": {"arg": {"name": "add"}, "buffer_name": "nb"}},
    {"user_output": {"arg": {"as_tensor": {"name": "view"}}}}]
  },
  "module_call_graph": []
 }
})JSON";

std::string meta(int dtype, const char* sizes, const char* strides) {
  return std::string("{\"dtype\": ") + std::to_string(dtype) + ", \"sizes\": " + sizes +
         ", \"strides\": " + strides + ", \"storage_offset\": {\"as_int\": 0}, \"layout\": 7}";
}

std::vector<uint8_t> make_archive() {
  std::string weights =
      "{\"config\": {"
      "\"w\": {\"path_name\": \"weight_0\", \"is_param\": true, \"use_pickle\": false, "
      "\"tensor_meta\": " +
      meta(7, "[{\"as_int\": 2}, {\"as_int\": 3}]", "[{\"as_int\": 3}, {\"as_int\": 1}]") +
      "},"
      "\"wt\": {\"path_name\": \"weight_0\", \"is_param\": true, \"use_pickle\": false, "
      "\"tensor_meta\": " +
      meta(7, "[{\"as_int\": 3}, {\"as_int\": 2}]", "[{\"as_int\": 1}, {\"as_int\": 3}]") + "}}}";
  std::string constants =
      "{\"config\": {"
      "\"nb\": {\"path_name\": \"tensor_0\", \"is_param\": false, \"use_pickle\": false, "
      "\"tensor_meta\": " +
      meta(7, "[{\"as_int\": 2}]", "[{\"as_int\": 1}]") +
      "},"
      "\"k\": {\"path_name\": \"tensor_1\", \"is_param\": false, \"use_pickle\": false, "
      "\"tensor_meta\": " +
      meta(5, "[{\"as_int\": 2}]", "[{\"as_int\": 1}]") + "}}}";
  std::vector<uint8_t> w0(6 * 4);  // floats 0, 1, 2, 3, 4, 5
  for (int i = 0; i < 6; ++i) {
    float f = static_cast<float>(i);
    std::memcpy(w0.data() + 4 * i, &f, 4);
  }
  std::vector<uint8_t> k(16);  // int64 7, -1
  int64_t kv[2] = {7, -1};
  std::memcpy(k.data(), kv, 16);
  return testing::zip_all({
      {"net/archive_format", as_bytes("pt2")},
      {"net/archive_version", as_bytes("0")},
      {"net/byteorder", as_bytes("little")},
      {"net/models/model.json", as_bytes(kModel)},
      {"net/data/weights/model_weights_config.json", as_bytes(weights)},
      {"net/data/weights/weight_0", w0},
      {"net/data/constants/model_constants_config.json", as_bytes(constants)},
      {"net/data/constants/tensor_0", {}},
      {"net/data/constants/tensor_1", k},
  });
}

std::vector<float> as_floats(const ConstantData& d) {
  std::vector<float> out(d.bytes.size() / 4);
  std::memcpy(out.data(), d.bytes.data(), d.bytes.size());
  return out;
}

TEST(Pt2SyntheticTest, ArchiveWithTiedViewsConstantsAndSymInts) {
  std::vector<uint8_t> file = make_archive();
  auto g = read_pt2_buffer(file.data(), file.size(), "net.pt2");
  ASSERT_TRUE(g.ok()) << format_error(g.error());
  EXPECT_EQ(g->info().layout, "pt2_archive");
  EXPECT_EQ(g->info().schema_minor, 5);
  const Value& w = g->value(g->find_value("p_w"));
  const Value& wt = g->value(g->find_value("p_wt"));
  ASSERT_NE(w.tensor.constant, nullptr);
  ASSERT_NE(wt.tensor.constant, nullptr);
  EXPECT_EQ(as_floats(*w.tensor.constant), (std::vector<float>{0, 1, 2, 3, 4, 5}));
  // wt = as_strided(storage, [3, 2], [1, 3]) = [[0, 3], [1, 4], [2, 5]], stored contiguous.
  EXPECT_EQ(as_floats(*wt.tensor.constant), (std::vector<float>{0, 3, 1, 4, 2, 5}));
  EXPECT_EQ(wt.tensor.strides[0].value, 2);
  const Value& nb = g->value(g->find_value("b_nb"));
  ASSERT_NE(nb.tensor.constant, nullptr);
  EXPECT_EQ(as_floats(*nb.tensor.constant), (std::vector<float>{0, 0}));  // zero-length record
  EXPECT_FALSE(g->signature().inputs[2].persistent);
  const Value& ck = g->value(g->find_value("c_k"));
  ASSERT_NE(ck.tensor.constant, nullptr);
  int64_t kv[2];
  std::memcpy(kv, ck.tensor.constant->bytes.data(), 16);
  EXPECT_EQ(kv[0], 7);
  EXPECT_EQ(kv[1], -1);
  // Dynamic dim with an open upper end; the symbolic scalar and its use in view.
  const TensorSpec& x = g->value(g->find_value("x")).tensor;
  EXPECT_EQ(x.to_string(), "f32[s0, 3]");
  EXPECT_EQ(x.sizes[0].range.to_string(), "[2, inf]");
  EXPECT_EQ(x.sizes[0].hint.value_or(0), 4);
  const Value& sym = g->value(g->find_value("sym_size_int"));
  EXPECT_EQ(sym.kind, ValueKind::SymInt);
  const Argument& size = g->nodes()[2].find_input("size")->arg;
  ASSERT_EQ(size.kind, ArgKind::SymIntList);
  EXPECT_EQ(size.values[0], g->find_value("sym_size_int"));
  EXPECT_EQ(size.values[1], kNoValue);
  EXPECT_EQ(size.ints[1], -1);
  EXPECT_EQ(g->signature().outputs[0].kind, OutputKind::BufferMutation);
  EXPECT_EQ(g->signature().outputs[0].target, "nb");
  EXPECT_EQ(g->nodes()[1].source_location(), "net.py:7");
}

TEST(Pt2SyntheticTest, TiedViewOutsideStorageIsRejected) {
  std::vector<uint8_t> file = make_archive();
  testing::ZipEntries entries = testing::unzip_all(file);
  std::vector<uint8_t>* w0 = testing::find_entry(entries, "weight_0");
  ASSERT_NE(w0, nullptr);
  w0->resize(20);  // 5 floats: wt's last element (index 5) is gone
  std::vector<uint8_t> bad = testing::zip_all(entries);
  auto g = read_pt2_buffer(bad.data(), bad.size(), "net.pt2");
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.error(), Error::InvalidExternalData);
  EXPECT_NE(std::string(last_error_message()).find("storage holds 5 elements"), std::string::npos)
      << format_error(g.error());
}

}  // namespace
}  // namespace ember::aot
