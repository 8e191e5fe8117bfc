// Errors in the AoT toolchain: the runtime's vocabulary, with std::string conveniences.
//
// Both halves of Ember share one error type and one result type: ember::runtime::Error
// (ExecuTorch's numeric codes, runtime/core/error.h) and Result<T> (runtime/core/result.h).
// A failing function records *why* as this thread's last error message
// (runtime/core/diagnostics.h) and returns the code; callers add context on the way up
// with annotate(), and whoever reports the error prints format_error(code) once:
//
//   Result<Graph> read(const std::string& path) {
//     if (bad) return invalid_program(path + ": no archive/data.pkl");   // record + code
//     EMBER_TRY_CONTEXT(check(g), "reading " + path);                    // annotate on the way up
//   }
//   Result<Graph> g = read("model.pt2");
//   if (!g.ok()) std::cerr << format_error(g.error());  // "InvalidProgram (0x23): model.pt2: ..."
//
// The AoT side runs on build servers, so these helpers take and return std::string; the
// message store itself is the runtime's fixed thread-local buffer
// (kMaxErrorMessageLength bytes; longer messages are cut at the end).
#pragma once

#include <string>

#include "runtime/core/diagnostics.h"
#include "runtime/core/error.h"
#include "runtime/core/result.h"

namespace ember::aot {

using runtime::Error;
using runtime::Result;
using runtime::error_name;
using runtime::last_error_message;

// Records `message` as this thread's last error message and returns `code`.
Error fail(Error code, const std::string& message);

// Prefixes this thread's last error message with "<context>: " (unless it already starts with
// exactly that) and returns `code`.
Error annotate(Error code, const std::string& context);

// "InvalidProgram (0x23): <last error message>", or "Ok" for Error::Ok.
std::string format_error(Error code);

// Shorthands for the common codes.
inline Error invalid_program(const std::string& m) { return fail(Error::InvalidProgram, m); }
inline Error invalid_data(const std::string& m) { return fail(Error::InvalidExternalData, m); }
inline Error not_found(const std::string& m) { return fail(Error::NotFound, m); }
inline Error not_supported(const std::string& m) { return fail(Error::NotSupported, m); }
inline Error invalid_argument(const std::string& m) { return fail(Error::InvalidArgument, m); }

}  // namespace ember::aot
