#include "runtime/core/error.h"

namespace ember::runtime {
namespace {

#if defined(EMBER_NO_MESSAGES)
// A build without message text (diagnostics.h) keeps the names, not the meanings.
#define EMBER_MEANING_(text) ""
#else
#define EMBER_MEANING_(text) text
#endif

struct ErrorInfo {
  Error error;
  const char* name;
  const char* meaning;
};

constexpr ErrorInfo kErrors[] = {
    {Error::Ok, "Ok", EMBER_MEANING_("success")},
    {Error::Internal, "Internal", EMBER_MEANING_("an internal invariant failed")},
    {Error::InvalidState, "InvalidState", EMBER_MEANING_("the object is not in a state that allows this call")},
    {Error::EndOfMethod, "EndOfMethod", EMBER_MEANING_("execution reached the end of the method")},
    {Error::AlreadyLoaded, "AlreadyLoaded", EMBER_MEANING_("already loaded")},
    {Error::NotSupported, "NotSupported", EMBER_MEANING_("not supported by this build or platform")},
    {Error::NotImplemented, "NotImplemented", EMBER_MEANING_("not implemented")},
    {Error::InvalidArgument, "InvalidArgument", EMBER_MEANING_("an argument or input value is invalid")},
    {Error::InvalidType, "InvalidType", EMBER_MEANING_("a value has the wrong type")},
    {Error::OperatorMissing, "OperatorMissing", EMBER_MEANING_("no registered kernel provides an operator")},
    {Error::RegistrationExceedingMaxKernels, "RegistrationExceedingMaxKernels",
     EMBER_MEANING_("the kernel registry is full")},
    {Error::RegistrationAlreadyRegistered, "RegistrationAlreadyRegistered",
     EMBER_MEANING_("that name is already registered")},
    {Error::NotFound, "NotFound", EMBER_MEANING_("a named thing does not exist")},
    {Error::MemoryAllocationFailed, "MemoryAllocationFailed",
     EMBER_MEANING_("an allocator or caller buffer is too small")},
    {Error::AccessFailed, "AccessFailed", EMBER_MEANING_("reading a file or buffer failed")},
    {Error::InvalidProgram, "InvalidProgram", EMBER_MEANING_("the program file is malformed")},
    {Error::InvalidExternalData, "InvalidExternalData", EMBER_MEANING_("external data is malformed")},
    {Error::OutOfResources, "OutOfResources", EMBER_MEANING_("a fixed-capacity resource is exhausted")},
    {Error::DelegateInvalidCompatibility, "DelegateInvalidCompatibility",
     EMBER_MEANING_("a delegate blob is for another version or format")},
    {Error::DelegateMemoryAllocationFailed, "DelegateMemoryAllocationFailed",
     EMBER_MEANING_("a delegate could not get memory")},
    {Error::DelegateInvalidHandle, "DelegateInvalidHandle", EMBER_MEANING_("a delegate handle is invalid")},
};

const ErrorInfo* find(Error error) {
  for (const ErrorInfo& info : kErrors) {
    if (info.error == error) return &info;
  }
  return nullptr;
}

}  // namespace

const char* error_name(Error error) {
  const ErrorInfo* info = find(error);
  return info != nullptr ? info->name : "Unknown";
}

const char* error_meaning(Error error) {
  const ErrorInfo* info = find(error);
  return info != nullptr ? info->meaning : EMBER_MEANING_("unknown error code");
}

}  // namespace ember::runtime
