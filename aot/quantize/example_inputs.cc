// read_example_inputs (see example_inputs.h).
#include "aot/quantize/example_inputs.h"

#include <cstring>

#include "aot/frontend/pt2_reader.h"
#include "aot/frontend/torch_pickle.h"
#include "aot/frontend/zip_reader.h"

namespace ember::aot {
namespace {

using Kind = PickleValue::Kind;

Error flatten(const PickleValue* v, const ZipReader& zip, const std::string& root,
              std::vector<HostTensor>* out) {
  if (v->kind == Kind::Tuple || v->kind == Kind::List) {
    for (const PickleValue* item : v->items) EMBER_TRY(flatten(item, zip, root, out));
    return Error::Ok;
  }
  if (v->kind != Kind::Tensor) {
    return fail(Error::NotSupported, "example inputs: only tensor inputs can be used as a "
                                     "calibration sample");
  }
  const PickleValue& storage = *v->items[0];
  EMBER_ASSIGN_OR_RETURN(std::vector<uint8_t> data, zip.read(root + "data/" + storage.s));
  const size_t es = element_size(v->dtype);
  HostTensor t;
  t.dtype = v->dtype;
  t.sizes = v->sizes;
  const int64_t n = t.numel();
  t.bytes.resize(size_t(n) * es);
  const size_t rank = t.sizes.size();
  std::vector<int64_t> idx(rank, 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t off = v->storage_offset;
    for (size_t d = 0; d < rank; ++d) off += idx[d] * v->strides[d];
    if (off < 0 || size_t(off + 1) * es > data.size()) {
      return fail(Error::InvalidProgram, "example inputs: a tensor reaches outside its storage");
    }
    std::memcpy(t.bytes.data() + size_t(k) * es, data.data() + size_t(off) * es, es);
    for (size_t d = rank; d-- > 0;) {
      if (++idx[d] < t.sizes[d]) break;
      idx[d] = 0;
    }
  }
  out->push_back(std::move(t));
  return Error::Ok;
}

}  // namespace

Result<std::vector<HostTensor>> read_example_inputs(const std::string& pt2_path) {
  EMBER_ASSIGN_OR_RETURN(std::vector<uint8_t> file, read_file_bytes(pt2_path));
  EMBER_ASSIGN_OR_RETURN(auto outer, ZipReader::open(file.data(), file.size(), pt2_path));
  std::string entry;
  // The old zip layout's serialized_example_inputs.pt; the PT2 archive's (torch >= 2.6)
  // data/sample_inputs/model.pt.
  for (const std::string& name : outer->names()) {
    for (const std::string suffix : {"example_inputs.pt", "data/sample_inputs/model.pt"}) {
      if (name.size() >= suffix.size() &&
          name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
        entry = name;
      }
    }
  }
  if (entry.empty()) return fail(Error::NotFound, pt2_path + " stores no example inputs");
  EMBER_ASSIGN_OR_RETURN(std::vector<uint8_t> inner_bytes, outer->read(entry));
  if (inner_bytes.empty()) return fail(Error::NotFound, pt2_path + " stores no example inputs");
  EMBER_ASSIGN_OR_RETURN(auto inner, ZipReader::open(inner_bytes.data(), inner_bytes.size(), entry));
  std::string root;
  for (const std::string& name : inner->names()) {
    const size_t slash = name.find('/');
    if (slash != std::string::npos && name.compare(slash, std::string::npos, "/data.pkl") == 0) {
      root = name.substr(0, slash + 1);
    }
  }
  if (root.empty()) return fail(Error::InvalidProgram, entry + ": not a torch.save file");
  EMBER_ASSIGN_OR_RETURN(std::vector<uint8_t> pkl, inner->read(root + "data.pkl"));
  EMBER_ASSIGN_OR_RETURN(auto result, unpickle(pkl.data(), pkl.size(), entry + ":data.pkl"));
  const PickleValue* top = result->root;
  if (top->kind != Kind::Tuple || top->items.size() != 2) {
    return fail(Error::NotSupported, entry + ": expected (args, kwargs)");
  }
  if (top->items[1]->kind == Kind::Dict && !top->items[1]->dict.empty()) {
    return fail(Error::NotSupported, entry + ": keyword example inputs are not supported");
  }
  std::vector<HostTensor> out;
  EMBER_TRY(flatten(top->items[0], *inner, root, &out));
  return out;
}

}  // namespace ember::aot
