// libzip-based zip packing/unpacking for tests.
#include "aot/frontend/zip_test_util.h"

#include <gtest/gtest.h>
#include <zip.h>

namespace ember::aot::testing {

ZipEntries unzip_all(const std::vector<uint8_t>& bytes) {
  ZipEntries out;
  zip_error_t err;
  zip_error_init(&err);
  zip_source_t* src = zip_source_buffer_create(bytes.data(), bytes.size(), 0, &err);
  zip_t* za = src ? zip_open_from_source(src, ZIP_RDONLY, &err) : nullptr;
  if (za == nullptr) {
    if (src) zip_source_free(src);
    ADD_FAILURE() << "unzip_all: " << zip_error_strerror(&err);
    zip_error_fini(&err);
    return out;
  }
  zip_int64_t n = zip_get_num_entries(za, 0);
  for (zip_int64_t i = 0; i < n; ++i) {
    zip_stat_t st;
    zip_stat_index(za, static_cast<zip_uint64_t>(i), 0, &st);
    std::vector<uint8_t> data(st.size);
    zip_file_t* f = zip_fopen_index(za, static_cast<zip_uint64_t>(i), 0);
    if (f && !data.empty()) zip_fread(f, data.data(), data.size());
    if (f) zip_fclose(f);
    out.emplace_back(st.name, std::move(data));
  }
  zip_discard(za);
  zip_error_fini(&err);
  return out;
}

std::vector<uint8_t> zip_all(const ZipEntries& entries, bool deflate) {
  zip_error_t err;
  zip_error_init(&err);
  zip_source_t* src = zip_source_buffer_create(nullptr, 0, 0, &err);
  zip_source_keep(src);
  zip_t* za = zip_open_from_source(src, ZIP_TRUNCATE, &err);
  for (const auto& [name, data] : entries) {
    zip_source_t* s = zip_source_buffer(za, data.data(), data.size(), 0);
    zip_int64_t idx = zip_file_add(za, name.c_str(), s, ZIP_FL_OVERWRITE);
    zip_set_file_compression(za, static_cast<zip_uint64_t>(idx),
                             deflate ? ZIP_CM_DEFLATE : ZIP_CM_STORE, deflate ? 9 : 0);
  }
  std::vector<uint8_t> out;
  if (zip_close(za) != 0) {
    ADD_FAILURE() << "zip_all: " << zip_strerror(za);
    zip_discard(za);
  } else if (zip_source_open(src) == 0) {
    zip_stat_t st;
    zip_source_stat(src, &st);
    out.resize(st.size);
    zip_source_read(src, out.data(), out.size());
    zip_source_close(src);
  }
  zip_source_free(src);
  zip_error_fini(&err);
  return out;
}

std::vector<uint8_t>* find_entry(ZipEntries& entries, const std::string& suffix) {
  for (auto& [name, data] : entries) {
    if (name.size() >= suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      return &data;
    }
  }
  return nullptr;
}

std::string as_text(const std::vector<uint8_t>& bytes) {
  return std::string(bytes.begin(), bytes.end());
}
std::vector<uint8_t> as_bytes(const std::string& text) {
  return std::vector<uint8_t>(text.begin(), text.end());
}

}  // namespace ember::aot::testing
