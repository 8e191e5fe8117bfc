#include "apps/llm/chat.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "runtime/core/diagnostics.h"

namespace ember::llm {

namespace {

Result<nlohmann::json> read_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) return runtime::fail(Error::NotFound, "cannot open '%s'", path.c_str());
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json j = nlohmann::json::parse(text.str(), nullptr, false);
  if (j.is_discarded()) return runtime::fail(Error::InvalidArgument, "'%s' is not JSON", path.c_str());
  return j;
}

bool ends_with(const std::string& s, const char* suffix) {
  const size_t n = std::char_traits<char>::length(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

}  // namespace

Result<ChatTemplate> resolve_chat_template(const std::string& flag,
                                           const std::string& tokenizer_path) {
  if (!flag.empty() && ends_with(flag, ".json")) {
    EMBER_ASSIGN_OR_RETURN(nlohmann::json row, read_json(flag));
    return chat_template_from_json(row);
  }
  if (!flag.empty()) return find_chat_template(flag);
  if (tokenizer_path.empty()) {
    return runtime::fail(Error::InvalidArgument,
                         "--chat needs --chat_template (a name or a .json row) without --tokenizer");
  }
  const size_t slash = tokenizer_path.find_last_of('/');
  const std::string config_path =
      (slash == std::string::npos ? std::string() : tokenizer_path.substr(0, slash + 1)) +
      "tokenizer_config.json";
  auto config = read_json(config_path);
  if (!config.ok() || !config->contains("chat_template") || !(*config)["chat_template"].is_string()) {
    return runtime::fail(Error::NotFound,
                         "no chat_template in '%s'; give --chat_template (a name or a .json row)",
                         config_path.c_str());
  }
  return chat_template_from_jinja((*config)["chat_template"].get<std::string>());
}

Error run_chat(Session& session, const Tokenizer& tokenizer, const ChatTemplate& tmpl,
               GenerationConfig config, const ChatOptions& options, std::FILE* in) {
  for (const std::string& stop : tmpl.stop_strings) {
    config.stop_strings.push_back(stop);
    if (auto id = tokenizer.token_id(stop)) config.stop_tokens.push_back(*id);
  }
  config.evaluate_last_token = true;  // the reply's last token is in the cache for the next turn
  Rng rng(config.sampling.seed);
  config.rng = &rng;
  std::vector<ChatMessage> messages;
  if (!options.system.empty()) messages.push_back({"system", options.system});
  char buffer[8192];
  for (int turn = 1; std::fgets(buffer, sizeof(buffer), in) != nullptr;) {
    std::string line(buffer);
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
    if (line.empty()) continue;
    messages.push_back({"user", line});
    EMBER_ASSIGN_OR_RETURN(std::string text, render_chat(tmpl, messages, true));
    // A template that writes the BOS text itself gets no second one from the tokenizer.
    EMBER_ASSIGN_OR_RETURN(std::vector<int32_t> ids, tokenizer.encode(text, tmpl.bos.empty()));
    auto result = generate(session, tokenizer, ids, config, [&](std::string_view piece) {
      if (!options.json) {
        std::fwrite(piece.data(), 1, piece.size(), stdout);
        std::fflush(stdout);
      }
      return true;
    });
    if (!result.ok()) return runtime::annotate(result.error(), "chat turn %d", turn);
    messages.push_back({"assistant", result->text});
    if (options.json) {
      nlohmann::json j;
      j["turn"] = turn;
      j["tokens"] = result->tokens;
      j["text"] = result->text;
      j["stop_reason"] = stop_reason_name(result->reason);
      j["prompt_tokens"] = result->prompt_tokens;
      j["prefill_evaluated"] = result->prefill_evaluated;
      j["prefill_reused"] = result->prefill_reused;
      std::printf("%s\n", j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
    } else {
      std::printf("\n");
    }
    std::fflush(stdout);
    ++turn;
  }
  return Error::Ok;
}

}  // namespace ember::llm
