// The entry point of the session_fuzz target (session_fuzz.cc) over LLM session files
// (EMBRLLMS version 1, llm/runner/session_file.h), for the in-suite test and the seed writer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "runtime/core/error.h"

namespace ember::fuzz {

// Loads the decoder the inputs are restored into (the tiny Llama fixture lowered with the
// portable recipe, //tests/embedding:llm_llama), once per process; later calls are no-ops.
// Registers the linked kernels and backends first.
runtime::Error session_fuzz_init(const std::string& pte_path);

// Real session files saved by save_session from the loaded decoder, as (name, fuzz input)
// pairs in both input forms: an empty session; a 5-token prompt with a generator; the prompt
// plus 3 greedy steps with a generator; the same truncated to 3 tokens (no logits).
std::vector<std::pair<std::string, std::string>> session_fuzz_seeds();

// One fuzz input. Byte 0 picks the form: even, the rest is a session file as is (the checksum
// layer; nearly every mutation ends at "checksum mismatch"); odd, the rest is a session file
// without its last 8 bytes and the target appends the checksum save_session would write, so
// mutations reach the header, the counts, tokens, logits, state table and state bytes. The
// file (an in-memory file) is restored with load_session into a session holding two tokens.
// Ok, or load_session's named error. Internal when an invariant breaks (the libFuzzer binary
// aborts on it): a refused file changed the session's tokens, a restored session cannot run
// its next token, or a refusal has no message.
runtime::Error session_fuzz_input(const uint8_t* data, size_t size);

// What session_fuzz_input does with its file, for the file at `path` (a FIFO, a directory).
runtime::Error session_fuzz_restore_file(const std::string& path);

}  // namespace ember::fuzz
