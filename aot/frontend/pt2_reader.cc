// .pt2 container detection and the read pipeline: JSON -> Graph -> weights -> verify.
#include "aot/frontend/pt2_reader.h"

#include <cstring>
#include <memory>
#include <set>

#include "aot/frontend/json_util.h"
#include "aot/frontend/program_json.h"
#include "aot/frontend/torch_save.h"
#include "aot/frontend/weights.h"
#include "aot/frontend/zip_reader.h"
#include "aot/ir/verifier.h"
#include "runtime/executor/pte_container.h"
#include "runtime/loader/file_data_loader.h"

namespace ember::aot {
namespace {

constexpr const char* kLegacyProgram = "serialized_exported_program.json";

// Reads the first existing entry of `names` as a torch.save payload (empty map if none),
// keeping only the tensors in `wanted`.
Error read_pickled(const ZipReader& zip, const std::vector<std::string>& names,
                   const std::set<std::string>& wanted, TensorMap* out) {
  for (const std::string& name : names) {
    if (!zip.contains(name)) continue;
    EMBER_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, zip.read(name));
    EMBER_ASSIGN_OR_RETURN(TensorMap m, read_torch_save(bytes, name, &wanted, zip.budget()));
    out->insert(m.begin(), m.end());
    return Error::Ok;
  }
  return Error::Ok;
}

Error read_legacy(const ZipReader& zip, const Pt2ReadOptions& options, Graph* g) {
  g->info().layout = "legacy_zip";
  EMBER_ASSIGN_OR_RETURN(std::string json, zip.read_text(kLegacyProgram));
  EMBER_TRY(decode_exported_program(json, kLegacyProgram, g));
  if (!options.load_weights) return Error::Ok;
  TensorMap tensors;  // torch 2.1/2.2 named the pickles *.json
  const std::set<std::string> wanted = weight_names(*g);
  EMBER_TRY(read_pickled(zip, {"serialized_state_dict.pt", "serialized_state_dict.json"}, wanted,
                         &tensors));
  EMBER_TRY(read_pickled(zip, {"serialized_constants.pt", "serialized_constants.json"}, wanted,
                         &tensors));
  return attach_weights(tensors, g);
}

Error read_payload(const ZipReader& zip, const std::string& dir, const std::string& config,
                   const std::string& pickled, const std::set<std::string>& wanted,
                   TensorMap* out) {
  if (zip.contains(dir + config)) {
    EMBER_ASSIGN_OR_RETURN(TensorMap m, read_raw_payload(zip, dir + config, dir, wanted));
    out->insert(m.begin(), m.end());
    return Error::Ok;
  }
  return read_pickled(zip, {dir + pickled}, wanted, out);
}

Error read_archive(const ZipReader& zip, const std::string& root, const Pt2ReadOptions& options,
                   Graph* g) {
  g->info().layout = "pt2_archive";
  if (zip.contains(root + "archive_version")) {
    EMBER_ASSIGN_OR_RETURN(std::string v, zip.read_text(root + "archive_version"));
    if (v != "0" && v != "0\n")
      return not_supported("PT2 archive_version '" + v + "' (expected 0)");
  }
  if (zip.contains(root + "byteorder")) {
    EMBER_ASSIGN_OR_RETURN(std::string order, zip.read_text(root + "byteorder"));
    if (order != "little") return not_supported("byteorder '" + order + "' (only little-endian)");
  }
  std::string model = "model";
  if (!zip.contains(root + "models/model.json")) {  // take the first model
    model.clear();
    for (const std::string& n : zip.names()) {
      std::string prefix = root + "models/";
      if (n.compare(0, prefix.size(), prefix) == 0 && n.size() > prefix.size() + 5 &&
          n.compare(n.size() - 5, 5, ".json") == 0) {
        model = n.substr(prefix.size(), n.size() - prefix.size() - 5);
        break;
      }
    }
    if (model.empty()) return invalid_program("PT2 archive has no models/<name>.json");
  }
  std::string entry = root + "models/" + model + ".json";
  EMBER_ASSIGN_OR_RETURN(std::string json, zip.read_text(entry));
  EMBER_TRY(decode_exported_program(json, entry, g));
  if (!options.load_weights) return Error::Ok;
  TensorMap tensors;
  const std::set<std::string> wanted = weight_names(*g);
  EMBER_TRY(read_payload(zip, root + "data/weights/", model + "_weights_config.json", model + ".pt",
                         wanted, &tensors));
  EMBER_TRY(read_payload(zip, root + "data/constants/", model + "_constants_config.json",
                         model + ".pt", wanted, &tensors));
  return attach_weights(tensors, g);
}

Result<Graph> read_zip(const uint8_t* data, size_t size, const std::string& name,
                       const Pt2ReadOptions& options) {
  if (runtime::PteContainer::has_program_identifier(data, size)) {
    return invalid_argument(name +
                            ": this is a .pte, already a program: run it with executor_runner "
                            "(lower takes the torch.export .pt2)");
  }
  if (size >= 8 && std::memcmp(data + 4, "BP08", 4) == 0) {
    return invalid_argument(
        name +
        ": this is a bundled program (.bpte), already lowered: run its test cases "
        "with executor_runner --bundled (lower takes the torch.export .pt2)");
  }
  auto zip =
      ZipReader::open(data, size, name, std::make_shared<ReadBudget>(size, options.max_read_bytes));
  if (!zip.ok()) return zip.error();
  Graph g;
  g.info().source = name;
  Error s = Error::Ok;
  const ZipReader& z = *zip.get();
  if (z.contains(kLegacyProgram)) {
    s = read_legacy(z, options, &g);
  } else {
    std::string root;
    if (!z.names().empty()) {
      size_t slash = z.names()[0].find('/');
      if (slash != std::string::npos) root = z.names()[0].substr(0, slash + 1);
    }
    auto format = z.read_text(root + "archive_format");
    if (root.empty() || !format.ok() || format.get() != "pt2") {
      return invalid_program(name + ": neither a legacy torch.export zip (no " + kLegacyProgram +
                             ") nor a PT2 archive (no <root>/archive_format = pt2)");
    }
    s = read_archive(z, root, options, &g);
  }
  if ((s == Error::Ok) && options.verify) s = verify_graph(g);
  if (s != Error::Ok) return annotate(s, name);
  return g;
}

}  // namespace

Result<Graph> read_pt2_buffer(const uint8_t* data, size_t size, const std::string& name,
                              const Pt2ReadOptions& options) {
  try {
    return read_zip(data, size, name, options);
  } catch (const std::bad_alloc&) {  // under a memory limit: a named error, never a crash
    return out_of_memory(name);
  }
}

Result<std::vector<uint8_t>> read_file_bytes(const std::string& path) {
  // FileDataLoader refuses what is not a regular file (a directory, a device) by name.
  EMBER_ASSIGN_OR_RETURN(runtime::FileDataLoader file, runtime::FileDataLoader::from(path.c_str()));
  EMBER_ASSIGN_OR_RETURN(size_t size, file.size());
  std::vector<uint8_t> bytes(size);
  if (size > 0) EMBER_TRY(file.load_into(0, size, runtime::SegmentInfo{}, bytes.data()));
  return bytes;
}

Result<Graph> read_pt2_file(const std::string& path, const Pt2ReadOptions& options) {
  EMBER_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, read_file_bytes(path));
  return read_pt2_buffer(bytes.data(), bytes.size(), path, options);
}

}  // namespace ember::aot
