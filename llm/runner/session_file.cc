#include "llm/runner/session_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "llm/runner/content_hash.h"
#include "runtime/core/diagnostics.h"

namespace ember::llm {
namespace {

constexpr char kMagic[8] = {'E', 'M', 'B', 'R', 'L', 'L', 'M', 'S'};
constexpr uint32_t kVersion = 1;
constexpr uint32_t kHasRng = 1;

// The fixed part after the magic.
struct Header {
  uint32_t version;
  uint32_t flags;
  uint64_t file_size;
  uint64_t content_hash;
  int32_t vocab_size;
  int32_t context_length;
  uint32_t num_tokens;
  uint32_t num_logits;
  uint32_t num_ranges;
  uint32_t reserved;
  uint64_t rng[4];
};
static_assert(sizeof(Header) == 80, "the header has no padding");

struct RangeEntry {
  uint8_t kind;
  uint8_t pad[3];
  uint32_t index;
  uint64_t bytes;
};
static_assert(sizeof(RangeEntry) == 16, "a range entry has no padding");

// Writes through a FILE*, hashing what it writes.
class HashedWriter {
 public:
  explicit HashedWriter(std::FILE* f) : f_(f) {}
  bool write(const void* data, size_t size) {
    hash_.update(data, size);
    return size == 0 || std::fwrite(data, 1, size, f_) == size;
  }
  uint64_t hash() const { return hash_.finish(); }

 private:
  std::FILE* f_;
  ContentHash hash_;
};

Error write_contents(std::FILE* f, const Header& header, const Session& session,
                     const std::vector<runtime::Module::StateRange>& ranges) {
  HashedWriter out(f);
  bool ok = out.write(kMagic, sizeof(kMagic)) && out.write(&header, sizeof(header)) &&
            out.write(session.tokens().data(), header.num_tokens * sizeof(int32_t)) &&
            out.write(session.last_logits().data(), header.num_logits * sizeof(float));
  for (const auto& r : ranges) {
    RangeEntry e{static_cast<uint8_t>(r.kind), {0, 0, 0}, r.index, r.bytes.size()};
    ok = ok && out.write(&e, sizeof(e));
  }
  for (const auto& r : ranges) ok = ok && out.write(r.bytes.data(), r.bytes.size());
  const uint64_t checksum = out.hash();
  ok = ok && std::fwrite(&checksum, 1, sizeof(checksum), f) == sizeof(checksum);
  ok = ok && std::fflush(f) == 0 && ::fsync(fileno(f)) == 0;
  return ok ? Error::Ok : Error::AccessFailed;
}

bool read_exact(std::FILE* f, void* data, size_t size) {
  return size == 0 || std::fread(data, 1, size, f) == size;
}

Error bad(const std::string& path, const char* what) {
  return runtime::fail(Error::InvalidArgument, "session file '%s': %s", path.c_str(), what);
}

// Hashes all but the last 8 bytes and compares with them; *size is the file's size.
Error check_checksum(std::FILE* f, const std::string& path, long* file_size) {
  if (std::fseek(f, 0, SEEK_END) != 0) return bad(path, "cannot seek");
  const long size = std::ftell(f);
  if (size < static_cast<long>(sizeof(kMagic) + sizeof(Header) + 8)) {
    return bad(path, "too short to be a session file");
  }
  std::rewind(f);
  ContentHash hash;
  std::vector<uint8_t> chunk(size_t(1) << 20);
  for (long left = size - 8; left > 0;) {
    const size_t want = static_cast<size_t>(std::min<long>(left, long(chunk.size())));
    if (!read_exact(f, chunk.data(), want)) return bad(path, "read failed");
    hash.update(chunk.data(), want);
    left -= static_cast<long>(want);
  }
  uint64_t stored = 0;
  if (!read_exact(f, &stored, sizeof(stored))) return bad(path, "read failed");
  if (stored != hash.finish()) return bad(path, "checksum mismatch (damaged or truncated)");
  std::rewind(f);
  *file_size = size;
  return Error::Ok;
}

}  // namespace

Error save_session(const std::string& path, PteLogitsModel& model, const Session& session,
                   const Rng* rng) {
  EMBER_ASSIGN_OR_RETURN(ModelIdentity id, model.identity());
  EMBER_ASSIGN_OR_RETURN(std::vector<runtime::Module::StateRange> ranges, model.state());
  Header header{};
  header.version = kVersion;
  header.flags = rng != nullptr ? kHasRng : 0;
  header.file_size = id.file_size;
  header.content_hash = id.content_hash;
  header.vocab_size = id.vocab_size;
  header.context_length = id.context_length;
  header.num_tokens = static_cast<uint32_t>(session.tokens().size());
  header.num_logits = static_cast<uint32_t>(session.last_logits().size());
  header.num_ranges = static_cast<uint32_t>(ranges.size());
  if (rng != nullptr) rng->state(header.rng);

  // A hidden temporary beside `path`, created like fopen's files (0666 less the umask; O_EXCL
  // settles races between writers), then renamed over it.
  const size_t slash = path.find_last_of('/');
  const std::string folder = slash == std::string::npos ? "." : path.substr(0, slash);
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  std::string temp;
  int fd = -1;
  static std::atomic<uint32_t> counter{0};
  for (int attempt = 0; fd < 0 && attempt < 16; ++attempt) {
    temp = folder + "/." + name + ".tmp-" + std::to_string(::getpid()) + "-" +
           std::to_string(counter.fetch_add(1));
    fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) {
    return runtime::fail(Error::AccessFailed, "cannot create a temporary file beside '%s'",
                         path.c_str());
  }
  std::FILE* f = ::fdopen(fd, "wb");
  if (f == nullptr) {
    ::close(fd);
    ::unlink(temp.c_str());
    return runtime::fail(Error::AccessFailed, "cannot open '%s'", temp.c_str());
  }
  Error err = write_contents(f, header, session, ranges);
  if (std::fclose(f) != 0) err = Error::AccessFailed;
  if (err == Error::Ok && ::rename(temp.c_str(), path.c_str()) != 0) err = Error::AccessFailed;
  if (err != Error::Ok) {
    ::unlink(temp.c_str());
    return runtime::fail(err, "cannot write session file '%s'", path.c_str());
  }
  // The rename itself survives a crash once the folder is synced.
  const int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    (void)::fsync(dir);
    ::close(dir);
  }
  return Error::Ok;
}

Error load_session(const std::string& path, PteLogitsModel& model, Session& session, Rng* rng,
                   bool* has_rng) {
  // O_NONBLOCK + fstat: a FIFO, a device or a directory is refused before open() can block or
  // a read run forever (issue #33); the descriptor blocks again for the reads.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return runtime::fail(Error::NotFound, "cannot open session file '%s'", path.c_str());
  struct stat st;
  const int flags = ::fcntl(fd, F_GETFL);
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || flags < 0 ||
      ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
    ::close(fd);
    return runtime::fail(Error::AccessFailed, "session file '%s' is not a readable regular file",
                         path.c_str());
  }
  std::FILE* f = ::fdopen(fd, "rb");
  if (f == nullptr) {
    ::close(fd);
    return runtime::fail(Error::AccessFailed, "cannot open session file '%s'", path.c_str());
  }
  struct Closer {
    std::FILE* f;
    ~Closer() { std::fclose(f); }
  } closer{f};
  long file_size = 0;
  EMBER_TRY(check_checksum(f, path, &file_size));
  char magic[sizeof(kMagic)];
  Header header;
  if (!read_exact(f, magic, sizeof(magic)) || std::memcmp(magic, kMagic, sizeof(kMagic)) != 0) {
    return bad(path, "not an Ember session file (magic)");
  }
  if (!read_exact(f, &header, sizeof(header))) return bad(path, "truncated header");
  if (header.version != kVersion) {
    return runtime::fail(Error::InvalidArgument,
                         "session file '%s': version %u, this build reads version %u",
                         path.c_str(), header.version, kVersion);
  }
  EMBER_ASSIGN_OR_RETURN(ModelIdentity id, model.identity());
  if (header.file_size != id.file_size || header.content_hash != id.content_hash ||
      header.vocab_size != id.vocab_size || header.context_length != id.context_length) {
    return runtime::fail(
        Error::InvalidArgument,
        "session file '%s' was saved with another model (file of %llu bytes, hash %016llx, "
        "vocab %d, context %d); the loaded one is %llu bytes, hash %016llx, vocab %d, context %d",
        path.c_str(), static_cast<unsigned long long>(header.file_size),
        static_cast<unsigned long long>(header.content_hash), header.vocab_size,
        header.context_length, static_cast<unsigned long long>(id.file_size),
        static_cast<unsigned long long>(id.content_hash), id.vocab_size, id.context_length);
  }
  if (header.num_tokens > static_cast<uint32_t>(id.context_length) ||
      (header.num_logits != 0 && header.num_logits != static_cast<uint32_t>(id.vocab_size))) {
    return bad(path, "token or logit count out of range");
  }
  std::vector<int32_t> tokens(header.num_tokens);
  std::vector<float> logits(header.num_logits);
  if (!read_exact(f, tokens.data(), tokens.size() * sizeof(int32_t)) ||
      !read_exact(f, logits.data(), logits.size() * sizeof(float))) {
    return bad(path, "truncated tokens or logits");
  }
  for (int32_t t : tokens) {
    if (t < 0 || t >= id.vocab_size) return bad(path, "a token id is outside the vocabulary");
  }
  EMBER_ASSIGN_OR_RETURN(std::vector<runtime::Module::StateRange> ranges, model.state());
  if (header.num_ranges != ranges.size()) {
    return runtime::fail(Error::InvalidArgument,
                         "session file '%s' holds %u state ranges; the program has %zu",
                         path.c_str(), header.num_ranges, ranges.size());
  }
  for (const auto& r : ranges) {
    RangeEntry e;
    if (!read_exact(f, &e, sizeof(e))) return bad(path, "truncated state table");
    if (e.kind != static_cast<uint8_t>(r.kind) || e.index != r.index || e.bytes != r.bytes.size()) {
      return runtime::fail(Error::InvalidArgument,
                           "session file '%s': state range (kind %u, index %u, %llu bytes) does "
                           "not match the program's (kind %u, index %u, %zu bytes)",
                           path.c_str(), e.kind, e.index, static_cast<unsigned long long>(e.bytes),
                           static_cast<unsigned>(r.kind), r.index, r.bytes.size());
    }
  }
  uint64_t state_bytes = 0;
  for (const auto& r : ranges) state_bytes += r.bytes.size();
  if (static_cast<uint64_t>(std::ftell(f)) + state_bytes + 8 != static_cast<uint64_t>(file_size)) {
    return bad(path, "the state bytes do not fill the file");
  }
  // Everything is checked: from here on the model's state is overwritten.
  for (const auto& r : ranges) {
    if (!read_exact(f, r.bytes.data(), r.bytes.size())) {
      (void)session.truncate(0);  // the cache no longer matches any history
      return runtime::fail(Error::AccessFailed, "session file '%s': read failed", path.c_str());
    }
  }
  EMBER_TRY(session.restore(std::move(tokens), std::move(logits)));
  *has_rng = (header.flags & kHasRng) != 0;
  if (*has_rng && rng != nullptr) rng->set_state(header.rng);
  return Error::Ok;
}

}  // namespace ember::llm
