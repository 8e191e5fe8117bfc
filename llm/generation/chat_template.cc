#include "llm/generation/chat_template.h"

#include "runtime/core/diagnostics.h"

namespace ember::llm {

const std::vector<ChatTemplate>& builtin_chat_templates();  // chat_templates.cc

namespace {

using runtime::Error;

std::string with_role(const std::string& pattern, const std::string& role) {
  std::string out = pattern;
  const size_t at = out.find("{role}");
  if (at != std::string::npos) out.replace(at, 6, role);
  return out;
}

Error read_string(const nlohmann::json& v, const char* key, std::string* out, bool required) {
  auto it = v.find(key);
  if (it == v.end()) {
    EMBER_CHECK_OR_RETURN(!required, InvalidArgument, "chat template: missing '%s'", key);
    return Error::Ok;
  }
  EMBER_CHECK_OR_RETURN(it->is_string(), InvalidArgument, "chat template: '%s' is not a string",
                        key);
  *out = it->get<std::string>();
  return Error::Ok;
}

}  // namespace

std::vector<std::string> chat_template_names() {
  std::vector<std::string> names;
  for (const ChatTemplate& t : builtin_chat_templates()) names.push_back(t.name);
  return names;
}

runtime::Result<ChatTemplate> find_chat_template(const std::string& name) {
  std::string known;
  for (const ChatTemplate& t : builtin_chat_templates()) {
    if (t.name == name) return t;
    known += (known.empty() ? "" : ", ") + t.name;
  }
  return runtime::fail(Error::NotFound, "no chat template '%s' (known: %s)", name.c_str(),
                       known.c_str());
}

runtime::Result<ChatTemplate> chat_template_from_json(const nlohmann::json& v) {
  EMBER_CHECK_OR_RETURN(v.is_object(), InvalidArgument, "chat template: not a JSON object");
  ChatTemplate t;
  EMBER_TRY(read_string(v, "name", &t.name, true));
  EMBER_TRY(read_string(v, "bos", &t.bos, false));
  EMBER_TRY(read_string(v, "turn_begin", &t.turn_begin, true));
  EMBER_TRY(read_string(v, "turn_end", &t.turn_end, true));
  EMBER_TRY(read_string(v, "system_role", &t.system_role, false));
  EMBER_TRY(read_string(v, "user_role", &t.user_role, true));
  EMBER_TRY(read_string(v, "assistant_role", &t.assistant_role, true));
  EMBER_TRY(read_string(v, "default_system", &t.default_system, false));
  auto merge = v.find("system_in_first_user");
  if (merge != v.end()) {
    EMBER_CHECK_OR_RETURN(merge->is_boolean(), InvalidArgument,
                          "chat template: 'system_in_first_user' is not a boolean");
    t.system_in_first_user = merge->get<bool>();
  }
  auto stops = v.find("stop_strings");
  if (stops != v.end()) {
    EMBER_CHECK_OR_RETURN(stops->is_array(), InvalidArgument,
                          "chat template: 'stop_strings' is not a list");
    for (const auto& s : *stops) {
      EMBER_CHECK_OR_RETURN(s.is_string(), InvalidArgument,
                            "chat template: a stop string is not a string");
      t.stop_strings.push_back(s.get<std::string>());
    }
  }
  EMBER_CHECK_OR_RETURN(t.system_in_first_user || !t.system_role.empty(), InvalidArgument,
                        "chat template '%s': no system_role and system_in_first_user is false",
                        t.name.c_str());
  return t;
}

runtime::Result<std::string> render_chat(const ChatTemplate& t,
                                         const std::vector<ChatMessage>& messages,
                                         bool add_generation_prompt) {
  std::string out = t.bos;
  std::string pending_system;
  const bool has_system = !messages.empty() && messages[0].role == "system";
  if (!has_system && !t.default_system.empty()) {
    if (t.system_in_first_user)
      pending_system = t.default_system;
    else
      out += with_role(t.turn_begin, t.system_role) + t.default_system + t.turn_end;
  }
  for (size_t i = 0; i < messages.size(); ++i) {
    const ChatMessage& m = messages[i];
    if (m.role == "system") {
      EMBER_CHECK_OR_RETURN(i == 0, InvalidArgument, "chat: a system message must come first");
      if (t.system_in_first_user)
        pending_system = m.content;
      else
        out += with_role(t.turn_begin, t.system_role) + m.content + t.turn_end;
    } else if (m.role == "user") {
      std::string content = m.content;
      if (!pending_system.empty()) {
        content = pending_system + "\n\n" + content;
        pending_system.clear();
      }
      out += with_role(t.turn_begin, t.user_role) + content + t.turn_end;
    } else if (m.role == "assistant") {
      out += with_role(t.turn_begin, t.assistant_role) + m.content + t.turn_end;
    } else {
      return runtime::fail(Error::InvalidArgument, "chat: unknown role '%s'", m.role.c_str());
    }
  }
  if (add_generation_prompt) out += with_role(t.turn_begin, t.assistant_role);
  return out;
}

runtime::Result<ChatTemplate> chat_template_from_jinja(const std::string& jinja) {
  auto has = [&](const char* marker) { return jinja.find(marker) != std::string::npos; };
  const char* name = nullptr;
  if (has("<|start_header_id|>")) {
    name = "llama3";
  } else if (has("<start_of_turn>")) {
    name = "gemma";
  } else if (has("<|user|>") && has("<|end|>")) {
    name = "phi3";
  } else if (has("<|im_start|>")) {
    name = has("SmolLM") ? "smollm2" : has("You are a helpful assistant.") ? "qwen2" : "chatml";
  }
  if (name == nullptr) {
    return runtime::fail(runtime::Error::NotSupported,
                         "the tokenizer's chat_template (%zu characters) is none of the known "
                         "families (llama3, chatml, qwen2, smollm2, gemma, phi3); give one by "
                         "name or as a JSON row",
                         jinja.size());
  }
  return find_chat_template(name);
}

}  // namespace ember::llm
