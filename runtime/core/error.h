// Error codes of the Ember runtime. The numeric values are ExecuTorch's, so codes
// users already know keep their meaning; every value has a name and a one-line
// meaning (docs/error_handling.md). Errors are values: functions return Error or
// Result<T>; nothing throws and nothing aborts on bad data.
#pragma once

#include <cstdint>

namespace ember::runtime {

enum class Error : uint32_t {
  // General.
  Ok = 0x00,             // Success.
  Internal = 0x01,       // An internal invariant failed (a bug in Ember).
  InvalidState = 0x02,   // The object is not in a state that allows this call.
  EndOfMethod = 0x03,    // Execution reached the end of the method.
  AlreadyLoaded = 0x04,  // The thing was already loaded.

  // Usage.
  NotSupported = 0x10,     // Valid, but not supported by this build or platform.
  NotImplemented = 0x11,   // Not implemented yet.
  InvalidArgument = 0x12,  // An argument or input value is invalid.
  InvalidType = 0x13,      // A value has the wrong type (tag or dtype).
  OperatorMissing = 0x14,  // No registered kernel provides an operator.

  // Registration.
  RegistrationExceedingMaxKernels = 0x15,  // The kernel registry is full.
  RegistrationAlreadyRegistered = 0x16,    // That name is already registered.

  // Resources and data.
  NotFound = 0x20,                // A named thing does not exist.
  MemoryAllocationFailed = 0x21,  // An allocator or caller buffer is too small.
  AccessFailed = 0x22,            // Reading a file or buffer failed.
  InvalidProgram = 0x23,          // The program file is malformed.
  InvalidExternalData = 0x24,     // External (named) data is malformed or mismatched.
  OutOfResources = 0x25,          // A fixed-capacity table or resource is exhausted.

  // Delegates.
  DelegateInvalidCompatibility = 0x30,    // A delegate blob is for another version/format.
  DelegateMemoryAllocationFailed = 0x31,  // A delegate could not get memory.
  DelegateInvalidHandle = 0x32,           // A delegate handle is invalid.
};

// "InvalidArgument"; "Unknown" for values outside the enum.
const char* error_name(Error error);

// One-line meaning, e.g. "an argument or input value is invalid".
const char* error_meaning(Error error);

}  // namespace ember::runtime
