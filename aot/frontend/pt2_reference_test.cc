// End-to-end check of what the reader produces: a tiny float32 reference interpreter
// (written here, independent of the rest of Ember) runs the read graphs on the fixture
// inputs and must reproduce the outputs real PyTorch computed (fixtures/pt2/generated/
// *.output*.bin, tolerance from the manifest). This proves weights are attached to the
// right values, in the right byte order and layout, and that the graph wiring, argument
// names and defaults were read correctly. Covers both container layouts, both dialects
// (conv2d/batch_norm and convolution/_native_batch_norm_legit_no_training) and the
// dynamic-batch MLP at two batch sizes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>

#include "aot/frontend/pt2_reader.h"
#include "aot/ir/op_schema.h"
#include "tests/support/shared_fixtures.h"

namespace ember::aot {
namespace {

struct T {
  std::vector<int64_t> shape;
  std::vector<float> data;
};

std::vector<float> floats(const std::vector<uint8_t>& bytes) {
  std::vector<float> out(bytes.size() / 4);
  std::memcpy(out.data(), bytes.data(), out.size() * 4);
  return out;
}

class Interpreter {
 public:
  explicit Interpreter(const Graph& g) : g_(g) {}

  // Runs the graph with the user inputs bound in order; returns the user outputs.
  std::vector<T> run(const std::vector<T>& user_inputs) {
    size_t next = 0;
    for (size_t i = 0; i < g_.inputs().size(); ++i) {
      ValueId id = g_.inputs()[i].value();
      const TensorSpec& spec = g_.value(id).tensor;
      if (g_.signature().inputs[i].kind == InputKind::UserInput) {
        vals_[id] = user_inputs.at(next++);
      } else if (spec.dtype == ScalarType::Float) {
        T t;
        for (const SymInt& s : spec.sizes) t.shape.push_back(s.value);
        t.data = floats(spec.constant->bytes);
        vals_[id] = t;
      }
    }
    for (const Node& n : g_.nodes()) {
      const OpSchema* schema = builtin_op_schemas().find(n.op);
      EXPECT_NE(schema, nullptr) << n.op.qualified();
      if (schema == nullptr) return {};
      auto args = bind_arguments(*schema, n);
      EXPECT_TRUE(args.ok()) << format_error(args.error());
      if (!args.ok()) return {};
      vals_[n.outputs[0].value()] = eval(n.op.name, args.get());
    }
    std::vector<T> out;
    for (size_t i = 0; i < g_.outputs().size(); ++i) {
      if (g_.signature().outputs[i].kind == OutputKind::UserOutput)
        out.push_back(vals_[g_.outputs()[i].value()]);
    }
    return out;
  }

 private:
  const T& in(const Argument& a) { return vals_.at(a.value()); }

  T eval(const std::string& op, const std::vector<Argument>& a) {
    if (op == "relu") {
      T r = in(a[0]);
      for (float& x : r.data) x = x > 0 ? x : 0;
      return r;
    }
    if (op == "add" || op == "mul") {
      T r = in(a[0]);
      const T& b = in(a[1]);
      for (size_t i = 0; i < r.data.size(); ++i)
        r.data[i] = op == "add" ? r.data[i] + b.data[i] : r.data[i] * b.data[i];
      return r;
    }
    if (op == "permute") {  // 2-D transpose only
      const T& x = in(a[0]);
      T r{{x.shape[1], x.shape[0]}, std::vector<float>(x.data.size())};
      for (int64_t i = 0; i < x.shape[0]; ++i)
        for (int64_t j = 0; j < x.shape[1]; ++j)
          r.data[j * x.shape[0] + i] = x.data[i * x.shape[1] + j];
      return r;
    }
    if (op == "addmm") {  // bias + mat1 @ mat2 (beta = alpha = 1 by default)
      const T& bias = in(a[0]);
      const T& m1 = in(a[1]);
      const T& m2 = in(a[2]);
      int64_t rows = m1.shape[0], k = m1.shape[1], cols = m2.shape[1];
      T r{{rows, cols}, std::vector<float>(rows * cols)};
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j) {
          double acc = bias.data[j];
          for (int64_t q = 0; q < k; ++q) acc += double(m1.data[i * k + q]) * m2.data[q * cols + j];
          r.data[i * cols + j] = float(acc);
        }
      return r;
    }
    if (op == "convolution" || op == "conv2d") return conv(a);
    if (op == "_native_batch_norm_legit_no_training") return batch_norm(a, 3, 4, 6);
    if (op == "batch_norm") return batch_norm(a, 3, 4, 7);
    ADD_FAILURE() << "reference interpreter lacks " << op;
    return {};
  }

  T conv(const std::vector<Argument>& a) {
    const T& x = in(a[0]);
    const T& w = in(a[1]);
    const T* b = a[2].kind == ArgKind::Tensor ? &in(a[2]) : nullptr;
    int64_t stride = a[3].ints[0], pad = a[4].ints[0], dil = a[5].ints[0];
    int64_t groups = a.back().i;
    int64_t n = x.shape[0], c = x.shape[1], h = x.shape[2], wd = x.shape[3];
    int64_t oc = w.shape[0], icg = w.shape[1], kh = w.shape[2], kw = w.shape[3];
    int64_t oh = (h + 2 * pad - dil * (kh - 1) - 1) / stride + 1;
    int64_t ow = (wd + 2 * pad - dil * (kw - 1) - 1) / stride + 1;
    T r{{n, oc, oh, ow}, std::vector<float>(n * oc * oh * ow)};
    int64_t ocg = oc / groups;
    for (int64_t b0 = 0; b0 < n; ++b0)
      for (int64_t o = 0; o < oc; ++o)
        for (int64_t y = 0; y < oh; ++y)
          for (int64_t z = 0; z < ow; ++z) {
            double acc = b ? b->data[o] : 0.0;
            for (int64_t ci = 0; ci < icg; ++ci)
              for (int64_t p = 0; p < kh; ++p)
                for (int64_t q = 0; q < kw; ++q) {
                  int64_t iy = y * stride - pad + p * dil, ix = z * stride - pad + q * dil;
                  if (iy < 0 || iy >= h || ix < 0 || ix >= wd) continue;
                  int64_t cin = (o / ocg) * icg + ci;
                  acc += double(x.data[((b0 * c + cin) * h + iy) * wd + ix]) *
                         w.data[((o * icg + ci) * kh + p) * kw + q];
                }
            r.data[((b0 * oc + o) * oh + y) * ow + z] = float(acc);
          }
    return r;
  }

  // y = (x - mean) / sqrt(var + eps) * weight + bias, per channel (dim 1).
  T batch_norm(const std::vector<Argument>& a, size_t mean_i, size_t var_i, size_t eps_i) {
    T r = in(a[0]);
    const T& w = in(a[1]);
    const T& b = in(a[2]);
    const T& mean = in(a[mean_i]);
    const T& var = in(a[var_i]);
    double eps = a[eps_i].f;
    int64_t c = r.shape[1], inner = 1;
    for (size_t d = 2; d < r.shape.size(); ++d) inner *= r.shape[d];
    for (size_t i = 0; i < r.data.size(); ++i) {
      int64_t ch = (static_cast<int64_t>(i) / inner) % c;
      r.data[i] =
          float((r.data[i] - mean.data[ch]) / std::sqrt(double(var.data[ch]) + eps) * w.data[ch] +
                b.data[ch]);
    }
    return r;
  }

  const Graph& g_;
  std::map<ValueId, T> vals_;
};

T load(const std::string& dir, const nlohmann::json& desc) {
  std::vector<uint8_t> bytes;
  EXPECT_TRUE(ember::testing::read_file(dir + desc["file"].get<std::string>(), &bytes));
  return T{desc["shape"].get<std::vector<int64_t>>(), floats(bytes)};
}

TEST(Pt2ReferenceTest, ReadGraphsReproduceTorchOutputs) {
  std::string shared = ember::testing::shared_dir();
  if (shared.empty()) GTEST_SKIP() << ember::testing::skip_message();
  std::string dir = shared + "/fixtures/pt2/generated/";
  std::vector<uint8_t> bytes;
  ASSERT_TRUE(ember::testing::read_file(dir + "manifest.json", &bytes));
  nlohmann::json manifest = nlohmann::json::parse(bytes.begin(), bytes.end());
  int cases = 0;
  for (auto& [key, m] : manifest["models"].items()) {
    std::string model = m["model"].get<std::string>();
    if (model != "mlp" && model != "mlp_dynamic_batch" && model != "conv_bn_relu" &&
        model != "add_mul")
      continue;
    SCOPED_TRACE(key);
    auto g = read_pt2_file(dir + m["file"].get<std::string>());
    ASSERT_TRUE(g.ok()) << format_error(g.error());
    double atol = m["tolerance"]["atol"].get<double>(), rtol = m["tolerance"]["rtol"].get<double>();
    for (const auto& c : m["cases"]) {
      std::vector<T> inputs;
      for (const auto& d : c["inputs"]) inputs.push_back(load(dir, d));
      std::vector<T> outputs = Interpreter(g.get()).run(inputs);
      ASSERT_EQ(outputs.size(), c["outputs"].size());
      for (size_t o = 0; o < outputs.size(); ++o) {
        T ref = load(dir, c["outputs"][o]);
        EXPECT_EQ(outputs[o].shape, ref.shape);
        ASSERT_EQ(outputs[o].data.size(), ref.data.size());
        for (size_t i = 0; i < ref.data.size(); ++i) {
          ASSERT_LE(std::fabs(outputs[o].data[i] - ref.data[i]),
                    atol + rtol * std::fabs(ref.data[i]))
              << "output " << o << " element " << i;
        }
      }
      ++cases;
    }
  }
  EXPECT_EQ(cases, 12);  // 10 files; the dynamic-batch MLP files have two cases each
}

}  // namespace
}  // namespace ember::aot
