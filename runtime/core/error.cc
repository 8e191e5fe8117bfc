#include "runtime/core/error.h"

namespace ember::runtime {
namespace {

struct ErrorInfo {
  Error error;
  const char* name;
  const char* meaning;
};

constexpr ErrorInfo kErrors[] = {
    {Error::Ok, "Ok", "success"},
    {Error::Internal, "Internal", "an internal invariant failed"},
    {Error::InvalidState, "InvalidState", "the object is not in a state that allows this call"},
    {Error::EndOfMethod, "EndOfMethod", "execution reached the end of the method"},
    {Error::AlreadyLoaded, "AlreadyLoaded", "already loaded"},
    {Error::NotSupported, "NotSupported", "not supported by this build or platform"},
    {Error::NotImplemented, "NotImplemented", "not implemented"},
    {Error::InvalidArgument, "InvalidArgument", "an argument or input value is invalid"},
    {Error::InvalidType, "InvalidType", "a value has the wrong type"},
    {Error::OperatorMissing, "OperatorMissing", "no registered kernel provides an operator"},
    {Error::RegistrationExceedingMaxKernels, "RegistrationExceedingMaxKernels",
     "the kernel registry is full"},
    {Error::RegistrationAlreadyRegistered, "RegistrationAlreadyRegistered",
     "that name is already registered"},
    {Error::NotFound, "NotFound", "a named thing does not exist"},
    {Error::MemoryAllocationFailed, "MemoryAllocationFailed",
     "an allocator or caller buffer is too small"},
    {Error::AccessFailed, "AccessFailed", "reading a file or buffer failed"},
    {Error::InvalidProgram, "InvalidProgram", "the program file is malformed"},
    {Error::InvalidExternalData, "InvalidExternalData", "external data is malformed"},
    {Error::OutOfResources, "OutOfResources", "a fixed-capacity resource is exhausted"},
    {Error::DelegateInvalidCompatibility, "DelegateInvalidCompatibility",
     "a delegate blob is for another version or format"},
    {Error::DelegateMemoryAllocationFailed, "DelegateMemoryAllocationFailed",
     "a delegate could not get memory"},
    {Error::DelegateInvalidHandle, "DelegateInvalidHandle", "a delegate handle is invalid"},
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
  return info != nullptr ? info->meaning : "unknown error code";
}

}  // namespace ember::runtime
