// The one escaping helper for every string that comes from a file (operator names, overloads,
// backend ids, stack traces, FQNs, paths inside archives) before a tool prints it (issue #33:
// a crafted .pte printed a forged "OK" line, and ESC[8m hid the rest of the output).
//
// printable() is for text and log lines. It keeps printable ASCII and valid UTF-8 as they
// are and escapes everything that can move the cursor, end a line, change the terminal's
// state or reorder what is shown:
//   - '"' and '\' as \" and \\ (so the escaped form is unambiguous inside quotes);
//   - C0 controls (newline, CR, tab, ESC ...) and DEL as \xNN;
//   - each byte of an invalid UTF-8 sequence (overlong, surrogate, truncated, > U+10FFFF)
//     as \xNN;
//   - C1 controls U+0080..U+009F (CSI, OSC as characters), the bidirectional controls
//     U+200E/F, U+202A..U+202E, U+2066..U+2069 and the separators U+2028/U+2029 as \uNNNN.
// json_quoted() is for JSON output: a complete JSON string literal ("..." with its quotes),
// always valid UTF-8: '"' and '\' escaped, the same control characters as \u00NN / \uNNNN,
// and each byte of an invalid sequence as the six characters \\xNN, so the decoded string
// reads exactly like printable()'s text for it.
#pragma once

#include <string>
#include <string_view>

namespace ember::apps {

std::string printable(std::string_view text);
// For a whole message line that already quotes the file strings it carries (a tool's
// "tool: ErrorName (0xNN): message" line): printable()'s escapes except for '"' and '\',
// which stay as they are (they cannot move the cursor; the message's own quotes stay legible).
std::string printable_message(std::string_view text);
std::string json_quoted(std::string_view text);

}  // namespace ember::apps
