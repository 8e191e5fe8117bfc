// Expected prompts written by hand from each family's published prompt format.
#include "llm/generation/chat_template.h"

#include <gtest/gtest.h>

#include "runtime/core/diagnostics.h"

namespace ember::llm {
namespace {

std::string render(const std::string& name, const std::vector<ChatMessage>& messages) {
  auto t = find_chat_template(name);
  EXPECT_TRUE(t.ok()) << runtime::last_error_message();
  auto text = render_chat(t.get(), messages, true);
  EXPECT_TRUE(text.ok()) << runtime::last_error_message();
  return text.ok() ? text.get() : "";
}

const std::vector<ChatMessage> kConversation = {
    {"system", "Be brief."}, {"user", "Hi"}, {"assistant", "Hello."}, {"user", "2+2?"}};

TEST(ChatTemplateTest, Llama3) {
  EXPECT_EQ(render("llama3", kConversation),
            "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nBe brief.<|eot_id|>"
            "<|start_header_id|>user<|end_header_id|>\n\nHi<|eot_id|>"
            "<|start_header_id|>assistant<|end_header_id|>\n\nHello.<|eot_id|>"
            "<|start_header_id|>user<|end_header_id|>\n\n2+2?<|eot_id|>"
            "<|start_header_id|>assistant<|end_header_id|>\n\n");
}

TEST(ChatTemplateTest, ChatMLAndQwenDefaultSystem) {
  EXPECT_EQ(render("chatml", {{"user", "Hi"}}),
            "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n");
  EXPECT_EQ(render("qwen2", {{"user", "Hi"}}),
            "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n"
            "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n");
  EXPECT_EQ(render("smollm2", {{"system", "S"}, {"user", "Hi"}}),
            "<|im_start|>system\nS<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n"
            "<|im_start|>assistant\n");
}

TEST(ChatTemplateTest, GemmaPutsSystemIntoTheFirstUserTurn) {
  EXPECT_EQ(render("gemma", kConversation),
            "<bos><start_of_turn>user\nBe brief.\n\nHi<end_of_turn>\n"
            "<start_of_turn>model\nHello.<end_of_turn>\n"
            "<start_of_turn>user\n2+2?<end_of_turn>\n<start_of_turn>model\n");
}

TEST(ChatTemplateTest, Phi3) {
  EXPECT_EQ(render("phi3", {{"system", "S"}, {"user", "Hi"}}),
            "<|system|>\nS<|end|>\n<|user|>\nHi<|end|>\n<|assistant|>\n");
}

TEST(ChatTemplateTest, CustomRowFromJson) {
  const auto json = nlohmann::json::parse(R"({"name": "plain", "turn_begin": "{role}: ",
      "turn_end": "\n", "system_role": "System", "user_role": "User",
      "assistant_role": "Bot", "stop_strings": ["\nUser:"]})");
  auto t = chat_template_from_json(json);
  ASSERT_TRUE(t.ok()) << runtime::last_error_message();
  EXPECT_EQ(render_chat(t.get(), {{"user", "Hi"}}, true).get(), "User: Hi\nBot: ");
  EXPECT_EQ(t->stop_strings, std::vector<std::string>{"\nUser:"});
}

TEST(ChatTemplateTest, ErrorsAreNamed) {
  EXPECT_EQ(find_chat_template("nope").error(), runtime::Error::NotFound);
  EXPECT_NE(std::string(runtime::last_error_message()).find("llama3"), std::string::npos);
  auto t = find_chat_template("chatml");
  EXPECT_EQ(render_chat(t.get(), {{"tool", "x"}}, true).error(), runtime::Error::InvalidArgument);
  EXPECT_EQ(render_chat(t.get(), {{"user", "x"}, {"system", "y"}}, true).error(),
            runtime::Error::InvalidArgument);
  EXPECT_EQ(chat_template_from_json(nlohmann::json::parse("{\"name\": 3}")).error(),
            runtime::Error::InvalidArgument);
}

// Excerpts of the families' published Jinja templates: the row is found by their markers.
TEST(ChatTemplateTest, FamilyFromTokenizerConfigJinja) {
  const std::pair<const char*, const char*> cases[] = {
      {"{{ '<|start_header_id|>' + message['role'] + '<|end_header_id|>\\n\\n' }}", "llama3"},
      {"{{ '<start_of_turn>' + role + '\\n' }}", "gemma"},
      {"{{'<|user|>' + '\\n' + message['content'] + '<|end|>'}}", "phi3"},
      {"{{ '<|im_start|>system\\nYou are a helpful AI assistant named SmolLM' }}", "smollm2"},
      {"{{ '<|im_start|>system\\nYou are a helpful assistant.<|im_end|>' }}", "qwen2"},
      {"{{ '<|im_start|>' + message['role'] }}", "chatml"},
  };
  for (const auto& [jinja, name] : cases) {
    auto t = chat_template_from_jinja(jinja);
    ASSERT_TRUE(t.ok()) << jinja;
    EXPECT_EQ(t->name, name) << jinja;
  }
  EXPECT_EQ(chat_template_from_jinja("{{ message['content'] }}").error(),
            runtime::Error::NotSupported);
}

}  // namespace
}  // namespace ember::llm
