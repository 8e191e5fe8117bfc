// The built-in chat template rows (data; the renderer is in chat_template.cc). Each row restates
// the family's published prompt format: Llama 3 (header ids), ChatML (Qwen, SmolLM), Gemma
// (start_of_turn, "model" role, no system role), Phi-3 (<|role|> tags).
#include "llm/generation/chat_template.h"

namespace ember::llm {

const std::vector<ChatTemplate>& builtin_chat_templates() {
  static const std::vector<ChatTemplate> rows = {
      {"llama3",
       "<|begin_of_text|>",
       "<|start_header_id|>{role}<|end_header_id|>\n\n",
       "<|eot_id|>",
       "system",
       "user",
       "assistant",
       false,
       "",
       {"<|eot_id|>"}},
      {"chatml",
       "",
       "<|im_start|>{role}\n",
       "<|im_end|>\n",
       "system",
       "user",
       "assistant",
       false,
       "",
       {"<|im_end|>"}},
      {"qwen2",
       "",
       "<|im_start|>{role}\n",
       "<|im_end|>\n",
       "system",
       "user",
       "assistant",
       false,
       "You are a helpful assistant.",
       {"<|im_end|>", "<|endoftext|>"}},
      {"smollm2",
       "",
       "<|im_start|>{role}\n",
       "<|im_end|>\n",
       "system",
       "user",
       "assistant",
       false,
       "You are a helpful AI assistant named SmolLM, trained by Hugging Face",
       {"<|im_end|>"}},
      {"gemma",
       "<bos>",
       "<start_of_turn>{role}\n",
       "<end_of_turn>\n",
       "",
       "user",
       "model",
       true,
       "",
       {"<end_of_turn>"}},
      {"phi3",
       "",
       "<|{role}|>\n",
       "<|end|>\n",
       "system",
       "user",
       "assistant",
       false,
       "",
       {"<|end|>", "<|endoftext|>"}},
  };
  return rows;
}

}  // namespace ember::llm
