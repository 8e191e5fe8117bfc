// FlatTensorDataMap: a NamedDataMap over a ".ptd" external data file (FT01
// FlatBuffer with an optional "FH01" header), e.g. weights that a program
// marks EXTERNAL by fully qualified name. load() verifies the file; get_data()
// loads a key's segment through the DataLoader (a view for buffer and mmap
// loaders). The loader must outlive the map. Malformed files (including the
// older Feb-2025 layout) give InvalidExternalData.
#pragma once

#include <cstddef>
#include <string_view>

#include "runtime/core/data_loader.h"
#include "runtime/core/freeable_buffer.h"
#include "runtime/core/named_data_map.h"
#include "runtime/core/result.h"

namespace ember::runtime {

class FlatTensorDataMap final : public NamedDataMap {
 public:
  static Result<FlatTensorDataMap> load(DataLoader* loader);

  FlatTensorDataMap(FlatTensorDataMap&&) = default;
  FlatTensorDataMap& operator=(FlatTensorDataMap&&) = delete;

  Result<FreeableBuffer> get_data(std::string_view key) const override;
  size_t num_keys() const override;
  Result<std::string_view> key_at(size_t i) const override;

 private:
  FlatTensorDataMap() = default;

  DataLoader* loader_ = nullptr;
  FreeableBuffer data_;
  const void* root_ = nullptr;
  size_t segment_base_ = 0;
  size_t file_size_ = 0;
};

}  // namespace ember::runtime
