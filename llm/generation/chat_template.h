// Prompt formats (chat templates) as data: one ChatTemplate row per family, rendered by one
// function. A turn is `turn_begin` (with "{role}" replaced by the family's role name) + content
// + `turn_end`; the prompt starts with `bos` and ends with the assistant's turn_begin (the
// generation prompt). Families without a system role (Gemma) put the system text before the
// first user message, separated by a blank line. Rows: llama3, chatml, qwen2, smollm2, gemma,
// phi3 (chat_templates.cc); chat_template_from_json() reads a custom row.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "runtime/core/result.h"

namespace ember::llm {

struct ChatTemplate {
  std::string name;
  std::string bos;         // text before everything ("" when the tokenizer adds BOS)
  std::string turn_begin;  // "{role}" is replaced by the role name
  std::string turn_end;
  std::string system_role, user_role, assistant_role;
  bool system_in_first_user = false;      // no system role: "<system>\n\n<user>"
  std::string default_system;             // used when the conversation has no system message
  std::vector<std::string> stop_strings;  // end-of-turn text that ends generation
};

struct ChatMessage {
  std::string role;  // "system", "user" or "assistant"
  std::string content;
};

// The built-in rows' names.
std::vector<std::string> chat_template_names();

// The built-in row `name`; NotFound lists the names.
runtime::Result<ChatTemplate> find_chat_template(const std::string& name);

// A row from JSON with the field names above; InvalidArgument names a missing or mistyped field.
runtime::Result<ChatTemplate> chat_template_from_json(const nlohmann::json& value);

// The built-in row a Hugging Face tokenizer_config.json's Jinja `chat_template` writes, found by
// the family's markers (the Jinja itself is not run): <|start_header_id|> -> llama3,
// <start_of_turn> -> gemma, <|user|> with <|end|> -> phi3, <|im_start|> -> smollm2 when it names
// SmolLM, qwen2 when it defaults to "You are a helpful assistant.", else chatml. NotSupported
// when none matches (give the template by name or as a JSON row instead).
runtime::Result<ChatTemplate> chat_template_from_jinja(const std::string& jinja);

// The prompt text for `messages`, ending with the generation prompt when `add_generation_prompt`.
// InvalidArgument for an unknown role.
runtime::Result<std::string> render_chat(const ChatTemplate& tmpl,
                                         const std::vector<ChatMessage>& messages,
                                         bool add_generation_prompt);

}  // namespace ember::llm
