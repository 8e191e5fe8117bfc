// Issue #33's crafted .pt2 files (see pt2_crafted.h).
#include "aot/frontend/pt2_crafted.h"

#include <gtest/gtest.h>

#include "aot/frontend/zip_test_util.h"

namespace ember::aot::testing {
namespace {

// "<root>/" of a PT2 archive: the folder of its first entry.
std::string root_of(const ZipEntries& entries) {
  if (entries.empty()) return "";
  const std::string& first = entries[0].first;
  return first.substr(0, first.find('/') + 1);
}

}  // namespace

bool replace_in(ZipEntries& entries, const std::string& entry, const std::string& from,
                const std::string& to) {
  std::vector<uint8_t>* data = find_entry(entries, entry);
  if (data == nullptr) {
    ADD_FAILURE() << "no entry " << entry;
    return false;
  }
  std::string text = as_text(*data);
  const size_t pos = text.find(from);
  if (pos == std::string::npos) {
    ADD_FAILURE() << entry << " has no " << from;
    return false;
  }
  text.replace(pos, from.size(), to);
  *data = as_bytes(text);
  return true;
}

std::vector<uint8_t> with_deep_stack_trace(const std::vector<uint8_t>& archive, size_t depth,
                                           bool deflate) {
  ZipEntries entries = unzip_all(archive);
  const std::string key = "\"metadata\": {\"stack_trace\": ";
  const std::string nested = std::string(depth, '[') + std::string(depth, ']');
  if (!replace_in(entries, "models/model.json", key, key + nested + ", \"was\": ")) return {};
  return zip_all(entries, deflate);
}

std::vector<uint8_t> with_control_bytes_stack_trace(const std::vector<uint8_t>& archive) {
  ZipEntries entries = unzip_all(archive);
  const std::string key = "\"stack_trace\": \"";
  const std::string forged =
      "\\u001b[8m\\u001b]0;x\\u0007\\nexecutor_runner: OK: all outputs match --expected\\n";
  if (!replace_in(entries, "models/model.json", key, key + forged)) return {};
  return zip_all(entries);
}

std::vector<uint8_t> with_unused_records(const std::vector<uint8_t>& archive, int count,
                                         int64_t elements, bool zero_length) {
  ZipEntries entries = unzip_all(archive);
  const std::string root = root_of(entries);
  std::string config;
  for (int i = 0; i < count; ++i) {
    const std::string path = zero_length ? "unused_0" : "unused_" + std::to_string(i);
    config += "\"unused." + std::to_string(i) + "\": {\"path_name\": \"" + path +
              "\", \"is_param\": true, \"use_pickle\": false, \"tensor_meta\": {\"dtype\": 7, "
              "\"sizes\": [{\"as_int\": " +
              std::to_string(elements) +
              "}], \"strides\": [{\"as_int\": 1}], \"storage_offset\": {\"as_int\": 0}, "
              "\"layout\": 7}}, ";
  }
  if (!replace_in(entries, "model_weights_config.json", "{\"config\": {",
                  "{\"config\": {" + config)) {
    return {};
  }
  if (zero_length) {
    entries.emplace_back(root + "data/weights/unused_0", std::vector<uint8_t>{});
    return zip_all(entries);
  }
  for (int i = 0; i < count; ++i) {
    entries.emplace_back(root + "data/weights/unused_" + std::to_string(i),
                         std::vector<uint8_t>(static_cast<size_t>(elements) * 4, 0));
  }
  return zip_all(entries, /*deflate=*/true);
}

std::vector<uint8_t> with_duplicate_entry(const std::vector<uint8_t>& file, const std::string& name,
                                          const std::string& second_text) {
  ZipEntries entries = unzip_all(file);
  std::string placeholder = name;
  placeholder[placeholder.size() - 5] = 'X';  // "model.json" -> "modelXjson"
  entries.emplace_back(placeholder, as_bytes(second_text));
  const std::vector<uint8_t> zip = zip_all(entries);
  std::string raw(zip.begin(), zip.end());
  int renamed = 0;
  for (size_t pos = 0; (pos = raw.find(placeholder, pos)) != std::string::npos; ++renamed) {
    raw.replace(pos, placeholder.size(), name);
  }
  EXPECT_EQ(renamed, 2) << "local header and central directory";
  return std::vector<uint8_t>(raw.begin(), raw.end());
}

}  // namespace ember::aot::testing
