// libzip-backed ZipReader.
#include "aot/frontend/zip_reader.h"

#include <zip.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <unordered_set>

namespace ember::aot {
namespace {

constexpr uint64_t kMaxEntryBytes = uint64_t{16} << 30;  // 16 GiB

// CRC-32 as zip stores it (IEEE 802.3, reflected polynomial 0xEDB88320).
uint32_t crc32_of(const std::vector<uint8_t>& bytes) {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  uint32_t crc = 0xFFFFFFFFu;
  for (uint8_t b : bytes) crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8);
  return crc ^ 0xFFFFFFFFu;
}

std::string hex32(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "0x%08x", v);
  return buf;
}

std::string libzip_message(zip_error_t* error) {
  std::string m = zip_error_strerror(error);
  zip_error_fini(error);
  return m;
}

}  // namespace

Result<std::unique_ptr<ZipReader>> ZipReader::open(const uint8_t* data, size_t size,
                                                   const std::string& what,
                                                   std::shared_ptr<ReadBudget> budget) {
  if (size < 22) {  // smaller than an end-of-central-directory record
    return invalid_program(what + ": " + std::to_string(size) +
                           " bytes is too small to be a zip archive (truncated file?)");
  }
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* src = zip_source_buffer_create(data, size, 0, &error);
  if (src == nullptr) return invalid_program(what + ": " + libzip_message(&error));
  zip* archive = zip_open_from_source(src, ZIP_RDONLY, &error);
  if (archive == nullptr) {
    zip_source_free(src);
    return invalid_program(what + ": not a readable zip archive (" + libzip_message(&error) +
                           "); truncated or corrupt file?");
  }
  zip_error_fini(&error);
  std::unique_ptr<ZipReader> reader(new ZipReader());
  reader->archive_ = archive;
  reader->archive_size_ = size;
  reader->what_ = what;
  reader->budget_ = budget != nullptr ? std::move(budget)
                                      : std::make_shared<ReadBudget>(size, kDefaultMaxReadBytes);
  zip_int64_t n = zip_get_num_entries(archive, 0);
  std::unordered_set<std::string> seen;
  for (zip_int64_t i = 0; i < n; ++i) {
    const char* name = zip_get_name(archive, static_cast<zip_uint64_t>(i), 0);
    if (name == nullptr) {
      return invalid_program(what + ": entry " + std::to_string(i) + " has no readable name");
    }
    if (!seen.insert(name).second) {
      return invalid_program(what + ": entry '" + name +
                             "' appears twice in the archive; Python's zipfile (torch.export.load) "
                             "would read the last copy, so the file is refused as ambiguous");
    }
    reader->names_.emplace_back(name);
  }
  return reader;
}

ZipReader::~ZipReader() {
  if (archive_ != nullptr) zip_discard(archive_);
}

bool ZipReader::contains(const std::string& name) const {
  return std::find(names_.begin(), names_.end(), name) != names_.end();
}

Result<std::vector<uint8_t>> ZipReader::read(const std::string& name) const {
  zip_int64_t index = zip_name_locate(archive_, name.c_str(), 0);
  if (index < 0) return not_found(what_ + ": no entry '" + name + "'");
  zip_stat_t st;
  zip_stat_init(&st);
  if (zip_stat_index(archive_, static_cast<zip_uint64_t>(index), 0, &st) != 0 ||
      !(st.valid & ZIP_STAT_SIZE)) {
    return fail(Error::AccessFailed, what_ + ": cannot stat entry '" + name + "'");
  }
  uint64_t limit = archive_size_;
  if ((st.valid & ZIP_STAT_COMP_METHOD) && st.comp_method != ZIP_CM_STORE) {
    limit = std::min<uint64_t>(archive_size_ * kMaxCompressionRatio, kMaxEntryBytes);
  }
  if (st.size > limit) {
    return invalid_program(what_ + ": entry '" + name + "' claims " + std::to_string(st.size) +
                           " bytes, more than the archive can hold (" + std::to_string(limit) +
                           ")");
  }
  EMBER_TRY(budget_->charge(st.size, what_ + ": entry '" + name + "'"));
  zip_file_t* f = zip_fopen_index(archive_, static_cast<zip_uint64_t>(index), 0);
  if (f == nullptr) {
    return fail(Error::AccessFailed,
                what_ + ": cannot open entry '" + name + "': " + zip_strerror(archive_));
  }
  std::vector<uint8_t> out(static_cast<size_t>(st.size));
  zip_int64_t got = out.empty() ? 0 : zip_fread(f, out.data(), out.size());
  std::string err = got < 0 ? zip_file_strerror(f) : "";
  zip_fclose(f);
  if (got < 0 || static_cast<uint64_t>(got) != st.size) {
    return fail(Error::AccessFailed, what_ + ": reading entry '" + name + "' gave " +
                                         std::to_string(got) + " of " + std::to_string(st.size) +
                                         " bytes" + (err.empty() ? "" : " (" + err + ")"));
  }
  // libzip does not check the CRC of a stored entry: a flipped bit in a weight would pass.
  if (st.valid & ZIP_STAT_CRC) {
    const uint32_t crc = crc32_of(out);
    if (crc != st.crc) {
      return invalid_program(what_ + ": entry '" + name + "' is damaged: CRC-32 " + hex32(crc) +
                             ", the archive records " + hex32(st.crc));
    }
  }
  return out;
}

Result<std::string> ZipReader::read_text(const std::string& name) const {
  EMBER_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, read(name));
  return std::string(bytes.begin(), bytes.end());
}

}  // namespace ember::aot
