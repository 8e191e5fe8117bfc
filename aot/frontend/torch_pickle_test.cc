// Tests for the torch.save pickle subset and strided weight extraction, on byte streams
// assembled by hand opcode by opcode (pickle protocol 2, as torch.save writes it).
#include "aot/frontend/torch_pickle.h"

#include <gtest/gtest.h>

#include <cstring>

#include "aot/frontend/loaded_tensor.h"

namespace ember::aot {
namespace {

using Kind = PickleValue::Kind;

struct Stream {
  std::vector<uint8_t> b;
  Stream& op(uint8_t c) {
    b.push_back(c);
    return *this;
  }
  Stream& str(const std::string& s) {  // BINUNICODE
    op('X');
    uint32_t n = static_cast<uint32_t>(s.size());
    for (int i = 0; i < 4; ++i) b.push_back(static_cast<uint8_t>(n >> (8 * i)));
    b.insert(b.end(), s.begin(), s.end());
    return *this;
  }
  Stream& global(const std::string& module, const std::string& name) {
    op('c');
    b.insert(b.end(), module.begin(), module.end());
    b.push_back('\n');
    b.insert(b.end(), name.begin(), name.end());
    b.push_back('\n');
    return *this;
  }
  Stream& int1(uint8_t v) { return op('K').op(v); }
};

// {'w': _rebuild_tensor_v2(storage('0', Float, numel 6), 1, (2, 2), (3, 1), False, OrderedDict())}
Stream state_dict_stream() {
  Stream s;
  s.op(0x80).op(2).op('}').op('q').op(0).op('(');
  s.str("w").global("torch._utils", "_rebuild_tensor_v2").op('(');
  s.op('(')
      .str("storage")
      .global("torch", "FloatStorage")
      .str("0")
      .str("cpu")
      .int1(6)
      .op('t')
      .op('Q');
  s.int1(1).int1(2).int1(2).op(0x86).int1(3).int1(1).op(0x86).op(0x89);
  s.global("collections", "OrderedDict").op(')').op('R').op('t').op('R');
  s.op('u').op('.');
  return s;
}

TEST(TorchPickleTest, StateDictWithOneTensor) {
  Stream s = state_dict_stream();
  auto r = unpickle(s.b.data(), s.b.size(), "test");
  ASSERT_TRUE(r.ok()) << format_error(r.error());
  const PickleValue* root = r.get()->root;
  ASSERT_EQ(root->kind, Kind::Dict);
  ASSERT_EQ(root->dict.size(), 1u);
  EXPECT_EQ(root->dict[0].first->s, "w");
  const PickleValue* t = root->dict[0].second;
  ASSERT_EQ(t->kind, Kind::Tensor);
  EXPECT_EQ(t->dtype, ScalarType::Float);
  EXPECT_EQ(t->sizes, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(t->strides, (std::vector<int64_t>{3, 1}));
  EXPECT_EQ(t->storage_offset, 1);
  EXPECT_EQ(t->items[0]->s, "0");
  EXPECT_EQ(t->items[0]->i, 6);
}

TEST(TorchPickleTest, ScalarsAndContainers) {
  // [LONG1 -2, BINFLOAT 1.5, SHORT_BINUNICODE 'ab', None, True] via EMPTY_LIST + APPENDS
  Stream s;
  s.op(0x80).op(2).op(']').op('(').op(0x8a).op(1).op(0xfe);
  s.op('G');
  for (uint8_t c : {0x3f, 0xf8, 0, 0, 0, 0, 0, 0}) s.op(c);
  s.op(0x8c).op(2).op('a').op('b').op('N').op(0x88).op('e').op('.');
  auto r = unpickle(s.b.data(), s.b.size(), "test");
  ASSERT_TRUE(r.ok()) << format_error(r.error());
  const PickleValue* list = r.get()->root;
  ASSERT_EQ(list->items.size(), 5u);
  EXPECT_EQ(list->items[0]->i, -2);
  EXPECT_EQ(list->items[1]->f, 1.5);
  EXPECT_EQ(list->items[2]->s, "ab");
  EXPECT_EQ(list->items[3]->kind, Kind::None);
  EXPECT_EQ(list->items[4]->i, 1);
}

TEST(TorchPickleTest, EveryTruncationIsAnError) {
  Stream s = state_dict_stream();
  for (size_t n = 0; n < s.b.size(); ++n) {
    auto r = unpickle(s.b.data(), n, "test");
    ASSERT_FALSE(r.ok()) << n;
    EXPECT_NE(std::string(last_error_message()).find("test: pickle offset"), std::string::npos)
        << format_error(r.error());
  }
}

TEST(TorchPickleTest, RejectsOutsideTheSubset) {
  Stream evil;
  evil.op(0x80).op(2).global("os", "system").str("rm -rf /").op(0x85).op('R').op('.');
  auto r = unpickle(evil.b.data(), evil.b.size(), "test");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), Error::NotSupported);
  EXPECT_NE(std::string(last_error_message()).find("os.system"), std::string::npos);

  Stream build;  // BUILD ('b') is not in the subset
  build.op(0x80).op(2).op('}').op('}').op('b').op('.');
  auto b = unpickle(build.b.data(), build.b.size(), "test");
  ASSERT_FALSE(b.ok());
  EXPECT_NE(std::string(last_error_message()).find("opcode 0x62"), std::string::npos) << format_error(b.error());

  Stream memo;  // BINGET of a key never stored
  memo.op(0x80).op(2).op('h').op(7).op('.');
  EXPECT_FALSE(unpickle(memo.b.data(), memo.b.size(), "test").ok());

  Stream empty_pop;  // TUPLE2 with one item
  empty_pop.op(0x80).op(2).op('N').op(0x86).op('.');
  EXPECT_FALSE(unpickle(empty_pop.b.data(), empty_pop.b.size(), "test").ok());

  Stream storage;  // unknown storage class
  storage.op(0x80)
      .op(2)
      .op('(')
      .str("storage")
      .global("torch", "QInt8Storage")
      .str("0")
      .str("cpu")
      .int1(1)
      .op('t')
      .op('Q')
      .op('.');
  auto st = unpickle(storage.b.data(), storage.b.size(), "test");
  ASSERT_FALSE(st.ok());
  EXPECT_NE(std::string(last_error_message()).find("torch.QInt8Storage"), std::string::npos);

  Stream cycle;  // a list appended to itself must not leak (arena ownership)
  cycle.op(0x80).op(2).op(']').op('q').op(0).op('h').op(0).op('a').op('.');
  EXPECT_TRUE(unpickle(cycle.b.data(), cycle.b.size(), "test").ok());
}

TEST(LoadedTensorTest, StridedCopyAndBounds) {
  auto storage = std::make_shared<std::vector<uint8_t>>(6 * 4);
  for (int i = 0; i < 6; ++i) {
    float f = static_cast<float>(10 + i);
    std::memcpy(storage->data() + 4 * i, &f, 4);
  }
  LoadedTensor t;
  t.dtype = ScalarType::Float;
  t.storage = storage;
  t.sizes = {2, 2};  // offset 1, strides (3, 1): elements 1, 2, 4, 5 -> 11, 12, 14, 15
  t.strides = {3, 1};
  t.storage_offset = 1;
  auto bytes = contiguous_bytes(t, "w");
  ASSERT_TRUE(bytes.ok()) << format_error(bytes.error());
  std::vector<float> got(4);
  std::memcpy(got.data(), bytes->data(), 16);
  EXPECT_EQ(got, (std::vector<float>{11, 12, 14, 15}));
  t.storage_offset = 2;  // last element would be index 6
  EXPECT_FALSE(contiguous_bytes(t, "w").ok());
  t.storage_offset = 0;
  t.strides = {-3, 1};
  EXPECT_FALSE(contiguous_bytes(t, "w").ok());
  t.strides = {3, 1};
  t.sizes = {int64_t{1} << 62, 4};
  EXPECT_FALSE(contiguous_bytes(t, "w").ok());
  t.sizes = {int64_t{1} << 36};  // stride 0 repeats one element: 256 GiB from 24 bytes
  t.strides = {0};
  auto huge = contiguous_bytes(t, "w");
  ASSERT_FALSE(huge.ok());
  EXPECT_NE(std::string(last_error_message()).find("implausibly large"), std::string::npos);
  t.sizes = {3};  // small broadcasts are fine
  auto small = contiguous_bytes(t, "w");
  ASSERT_TRUE(small.ok());
  EXPECT_EQ(small->size(), 12u);
}

}  // namespace
}  // namespace ember::aot
