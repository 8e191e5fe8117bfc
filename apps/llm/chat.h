// ember_llm --chat: an interactive conversation on a terminal. Each line read is a user message;
// the conversation so far is rendered with a chat template (llm/generation/chat_template.h) and
// handed whole to generate(), whose session reuses the cached prefix, so each turn prefills only
// its new tokens; the reply streams to stdout and joins the conversation.
#pragma once

#include <cstdio>
#include <string>

#include "llm/generation/chat_template.h"
#include "llm/generation/generation.h"
#include "llm/runner/session.h"
#include "llm/tokenizer/tokenizer.h"

namespace ember::llm {

// The template for --chat_template `flag`: a built-in row's name, or a .json file holding a row;
// when `flag` is empty, the tokenizer_config.json beside `tokenizer_path` (its Jinja
// chat_template, recognised by family: chat_template_from_jinja). NotFound / NotSupported /
// InvalidArgument name what is missing.
Result<ChatTemplate> resolve_chat_template(const std::string& flag,
                                           const std::string& tokenizer_path);

struct ChatOptions {
  std::string system;  // the system message ("" : the template's default, if any)
  bool json = false;   // one JSON object per turn on stdout instead of the text
};

// Reads user lines from `in` until EOF and answers each on `session`; `config` gives sampling
// and the context (its stop strings and tokens are extended with the template's end of turn).
Error run_chat(Session& session, const Tokenizer& tokenizer, const ChatTemplate& tmpl,
               GenerationConfig config, const ChatOptions& options, std::FILE* in);

}  // namespace ember::llm
