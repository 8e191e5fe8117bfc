// torch.save zip + pickle -> TensorMap.
#include "aot/frontend/torch_save.h"

#include <map>

#include "aot/frontend/torch_pickle.h"
#include "aot/frontend/zip_reader.h"

namespace ember::aot {
namespace {

using Kind = PickleValue::Kind;

Result<std::string> archive_root(const ZipReader& zip, const std::string& what) {
  for (const std::string& name : zip.names()) {
    size_t slash = name.find('/');
    if (slash != std::string::npos && name.compare(slash, std::string::npos, "/data.pkl") == 0) {
      return name.substr(0, slash + 1);
    }
  }
  return invalid_data(what + ": no <root>/data.pkl entry; not a torch.save file");
}

}  // namespace

Result<TensorMap> read_torch_save(const std::vector<uint8_t>& bytes, const std::string& what,
                                  const std::set<std::string>* wanted,
                                  std::shared_ptr<ReadBudget> budget) {
  TensorMap out;
  if (bytes.empty()) return out;
  EMBER_ASSIGN_OR_RETURN(auto zip,
                         ZipReader::open(bytes.data(), bytes.size(), what, std::move(budget)));
  EMBER_ASSIGN_OR_RETURN(std::string root, archive_root(*zip, what));
  if (zip->contains(root + "byteorder")) {
    EMBER_ASSIGN_OR_RETURN(std::string order, zip->read_text(root + "byteorder"));
    if (order != "little") {
      return not_supported(what + ": byte order '" + order + "' (only little-endian is supported)");
    }
  }
  EMBER_ASSIGN_OR_RETURN(std::vector<uint8_t> pkl, zip->read(root + "data.pkl"));
  EMBER_ASSIGN_OR_RETURN(auto result, unpickle(pkl.data(), pkl.size(), what + ":data.pkl"));
  const PickleValue* top = result->root;
  if (top->kind != Kind::Dict) return invalid_data(what + ": top-level object is not a dict");
  std::map<std::string, std::shared_ptr<const std::vector<uint8_t>>> storages;
  for (const auto& [key, value] : top->dict) {
    if (key->kind != Kind::String) return invalid_data(what + ": dict key is not a string");
    if (value->kind != Kind::Tensor) {
      return not_supported(what + ": entry '" + key->s + "' is not a plain tensor");
    }
    if (wanted != nullptr && wanted->count(key->s) == 0) continue;  // not in the graph: unread
    const PickleValue& storage = *value->items[0];
    std::string record = root + "data/" + storage.s;
    auto it = storages.find(record);
    if (it == storages.end()) {
      EMBER_ASSIGN_OR_RETURN(std::vector<uint8_t> data, zip->read(record));
      uint64_t expected = 0;
      if (__builtin_mul_overflow(static_cast<uint64_t>(storage.i), element_size(storage.dtype),
                                 &expected) ||
          data.size() != expected) {
        return invalid_data(what + ": storage '" + storage.s + "' of '" + key->s + "' has " +
                            std::to_string(data.size()) + " bytes, the pickle says " +
                            std::to_string(storage.i) + " x " + to_string(storage.dtype) + " = " +
                            std::to_string(expected));
      }
      it = storages.emplace(record, std::make_shared<const std::vector<uint8_t>>(std::move(data)))
               .first;
    }
    LoadedTensor t;
    t.dtype = value->dtype;
    t.sizes = value->sizes;
    t.strides = value->strides;
    t.storage_offset = value->storage_offset;
    t.storage = it->second;
    t.origin = what + ":" + record;
    out.emplace(key->s, std::move(t));
  }
  return out;
}

}  // namespace ember::aot
