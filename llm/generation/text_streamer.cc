#include "llm/generation/text_streamer.h"

#include <algorithm>

#include "llm/tokenizer/utf8.h"

namespace ember::llm {
namespace {

const char kReplacement[] = "\xEF\xBF\xBD";

// Bytes of trailing U+FFFD: an unfinished character decodes to U+FFFD until it is complete.
size_t trailing_replacements(const std::string& text) {
  size_t n = 0;
  while (text.size() >= n + 3 && text.compare(text.size() - n - 3, 3, kReplacement) == 0) n += 3;
  return n;
}

}  // namespace

size_t stop_prefix_overlap(const std::string& text, const std::vector<std::string>& stops) {
  size_t best = 0;
  for (const std::string& stop : stops) {
    const size_t max = std::min(text.size(), stop.size() - 1);
    for (size_t len = max; len > best; --len) {
      if (text.compare(text.size() - len, len, stop, 0, len) == 0) {
        best = len;
        break;
      }
    }
  }
  return best;
}

TextStreamer::TextStreamer(const Tokenizer& tokenizer, std::vector<std::string> stop_strings,
                           bool skip_special_tokens)
    : tokenizer_(tokenizer), skip_special_(skip_special_tokens) {
  for (std::string& s : stop_strings) {
    if (!s.empty()) stop_strings_.push_back(std::move(s));
  }
}

StreamStep TextStreamer::settle(const std::string& text, bool final) {
  StreamStep step;
  if (stopped_) return step;
  // Earliest stop string in the text not yet handed out (it may begin in held-back bytes).
  size_t stop_at = std::string::npos;
  const size_t search_from = emitted_text_.size();
  for (const std::string& stop : stop_strings_) {
    const size_t from = search_from >= stop.size() ? search_from - stop.size() + 1 : 0;
    const size_t hit = text.find(stop, from);
    if (hit != std::string::npos && hit + stop.size() > search_from)
      stop_at = std::min(stop_at, hit);
  }
  size_t end = text.size();
  if (stop_at != std::string::npos) {
    end = std::max(stop_at, search_from);
    stopped_ = step.stopped = true;
  } else if (!final) {
    end -= trailing_replacements(text);
    end -= stop_prefix_overlap(text.substr(0, end), stop_strings_);
    end = std::min(end, complete_utf8_prefix(text.substr(0, end)));
  }
  // Text already handed out never changes: only append beyond it.
  if (end > search_from && text.compare(0, search_from, emitted_text_) == 0) {
    step.text = text.substr(search_from, end - search_from);
    emitted_text_ += step.text;
  }
  return step;
}

Result<StreamStep> TextStreamer::push(int32_t id) {
  ids_.push_back(id);
  auto text = tokenizer_.decode(ids_, skip_special_);
  if (!text.ok()) {
    ids_.pop_back();
    return text.error();
  }
  last_decode_ = std::move(text.get());
  return settle(last_decode_, false);
}

std::string TextStreamer::finish() { return settle(last_decode_, true).text; }

}  // namespace ember::llm
