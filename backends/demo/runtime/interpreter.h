// The demo bytecode interpreter: runs a verified DemoProgram (bytecode_program.h) on the
// delegate's arguments. It checks only what can change between runs -- the argument
// count, that each argument is a contiguous float32 tensor of the slot's shape (outputs
// are resized to it when their shape differs and they are dynamic) -- then binds the
// input/output slots and executes the instructions in order. No allocation, no
// exceptions; float32 only. Not re-entrant for one program (the slot pointers live in it).
#pragma once

#include "backends/demo/runtime/bytecode_program.h"
#include "runtime/backend/backend_interface.h"
#include "runtime/core/evalue.h"
#include "runtime/core/span.h"

namespace ember::backends::demo {

// args = the delegate's inputs, then its outputs. Errors: InvalidArgument (wrong count,
// shape or layout), InvalidType (not a float32 tensor), or a failed output resize.
// With `profiler`, every bytecode instruction k is timed and reported as operator k of
// delegate-call instruction `instruction`.
runtime::Error run_program(const DemoProgram& program, runtime::Span<runtime::EValue*> args,
                           runtime::DelegateProfiler* profiler = nullptr, size_t instruction = 0);

}  // namespace ember::backends::demo
