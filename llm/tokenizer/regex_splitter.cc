#include "llm/tokenizer/regex_splitter.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "runtime/core/diagnostics.h"

namespace ember::llm {

struct RegexSplitter::Impl {
  pcre2_code* code = nullptr;
  bool jit = false;
  ~Impl() {
    if (code != nullptr) pcre2_code_free(code);
  }
};

namespace {

// One match-data block per thread, reused across calls (the splitter itself is immutable and
// may be shared by threads).
struct MatchData {
  pcre2_match_data* data = pcre2_match_data_create(1, nullptr);
  ~MatchData() { pcre2_match_data_free(data); }
};

pcre2_match_data* thread_match_data() {
  thread_local MatchData md;
  return md.data;
}

size_t next_char(std::string_view text, size_t i) {
  ++i;
  while (i < text.size() && (static_cast<uint8_t>(text[i]) & 0xC0) == 0x80) ++i;
  return i;
}

}  // namespace

RegexSplitter::RegexSplitter(std::string pattern, std::unique_ptr<Impl> impl)
    : pattern_(std::move(pattern)), impl_(std::move(impl)) {}
RegexSplitter::RegexSplitter(RegexSplitter&&) noexcept = default;
RegexSplitter& RegexSplitter::operator=(RegexSplitter&&) noexcept = default;
RegexSplitter::~RegexSplitter() = default;

runtime::Result<RegexSplitter> RegexSplitter::compile(const std::string& pattern) {
  int code = 0;
  PCRE2_SIZE offset = 0;
  auto impl = std::make_unique<Impl>();
  impl->code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                             PCRE2_UTF | PCRE2_UCP | PCRE2_DOLLAR_ENDONLY, &code, &offset, nullptr);
  if (impl->code == nullptr) {
    PCRE2_UCHAR message[256];
    pcre2_get_error_message(code, message, sizeof(message));
    return runtime::fail(runtime::Error::InvalidArgument,
                         "split regex does not compile at offset %zu: %s", offset,
                         reinterpret_cast<const char*>(message));
  }
  impl->jit = pcre2_jit_compile(impl->code, PCRE2_JIT_COMPLETE) == 0;
  return RegexSplitter(pattern, std::move(impl));
}

runtime::Error RegexSplitter::find_all(std::string_view text,
                                       std::vector<std::pair<size_t, size_t>>* out) const {
  pcre2_match_data* md = thread_match_data();
  const auto* subject = reinterpret_cast<PCRE2_SPTR>(text.data());
  size_t pos = 0;
  while (pos <= text.size()) {
    const int rc = impl_->jit ? pcre2_jit_match(impl_->code, subject, text.size(), pos,
                                                PCRE2_NO_UTF_CHECK, md, nullptr)
                              : pcre2_match(impl_->code, subject, text.size(), pos,
                                            PCRE2_NO_UTF_CHECK, md, nullptr);
    if (rc == PCRE2_ERROR_NOMATCH) return runtime::Error::Ok;  // the rest is one gap
    if (rc < 0) {
      PCRE2_UCHAR message[256];
      pcre2_get_error_message(rc, message, sizeof(message));
      return runtime::fail(runtime::Error::OutOfResources,
                           "split regex gave up at byte %zu of %zu: %s", pos, text.size(),
                           reinterpret_cast<const char*>(message));
    }
    const PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(md);
    const size_t begin = ovector[0], end = ovector[1];
    if (end == begin) {
      if (begin >= text.size()) return runtime::Error::Ok;
      pos = next_char(text, begin);
      continue;
    }
    out->emplace_back(begin, end);
    pos = end;
  }
  return runtime::Error::Ok;
}

}  // namespace ember::llm
