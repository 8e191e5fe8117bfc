// write_output_file (see output_file.h): every output of lower is written atomically.
#include "apps/lower/output_file.h"

#include "apps/common/atomic_file.h"

namespace ember::aot {

Error write_output_file(const std::string& path, const void* data, size_t size) {
  return apps::write_file_atomically(path, data, size);
}

Error write_output_files(const std::vector<OutputFile>& files) {
  std::vector<apps::AtomicFile> open;
  for (const OutputFile& f : files) {
    EMBER_ASSIGN_OR_RETURN(apps::AtomicFile out, apps::AtomicFile::create(f.path));
    EMBER_TRY(out.write(f.bytes.data(), f.bytes.size()));
    open.push_back(std::move(out));
  }
  return apps::commit_all(open);
}

}  // namespace ember::aot
