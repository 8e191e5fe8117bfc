// Saving a conversation to a file and restoring it in another process, bit for bit: the KV
// cache and any other state of the program (PteLogitsModel::state()), the session's tokens and
// the logits after the last one, and optionally the sampler's generator, so generation after a
// restore continues exactly where the saved run stopped.
//
// The file (little-endian, version 1): the magic "EMBRLLMS", version, flags (bit 0: a
// generator state follows), the model's identity (file size, content hash, vocabulary size,
// context length), the counts of tokens, logits and state ranges, the generator's 4 words, the
// tokens (int32), the logits (float32), a table of state ranges (kind, index, byte size), their
// bytes in table order, and a ContentHash of everything before it. A restore checks the magic,
// version, checksum, identity and every range against the loaded program before it changes
// anything.
#pragma once

#include <string>

#include "llm/generation/random.h"
#include "llm/runner/pte_logits_model.h"
#include "llm/runner/session.h"

namespace ember::llm {

// Writes `session` on `model` (the context the session runs on) and, when not null, `rng` to
// `path` atomically: a hidden temporary file beside it (mode 0666 less the umask), written,
// flushed and synced, renamed over `path`, the folder synced; on failure `path` is untouched and
// the temporary removed. AccessFailed names the file.
Error save_session(const std::string& path, PteLogitsModel& model, const Session& session,
                   const Rng* rng);

// Restores what save_session wrote into `model`'s state and `session`; sets *has_rng and, when
// the file holds a generator, *rng. InvalidArgument names the mismatch (another model, another
// version, a damaged or truncated file) and leaves model and session as they were.
Error load_session(const std::string& path, PteLogitsModel& model, Session& session, Rng* rng,
                   bool* has_rng);

}  // namespace ember::llm
