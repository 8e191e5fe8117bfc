// Selective build (build_defs/ember.bzl: ember_selective_kernels): the registration source of
// only the kernels some programs call. The operator names come from .pte files (the same
// operator histogram `inspect --json` prints as "operators") or from op lists; the name ->
// function mapping comes from the kernel library's own table (kernels/portable/
// register_kernels.cc, one `{"ns::op.overload", boxed<&function>},` line per overload), so
// there is one list of kernels, and the generated table names only the functions it needs:
// a static link then leaves every other kernel out.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "aot/ir/error.h"

namespace ember::aot {

struct KernelTable {
  std::map<std::string, std::string> functions;  // "aten::add.out" -> "add_out"
  std::vector<std::string> includes;             // the table file's #include lines, in order
};

// Parses a kernel table source (see above). InvalidArgument when it holds no entry.
Result<KernelTable> parse_kernel_table(const std::string& source);

// The operator names a registration source names (`{"name", ...}` entries), e.g. prim ops.
std::set<std::string> parse_provided_ops(const std::string& source);

// The operators the methods of a .pte call (KernelCall instructions), delegate calls excluded.
Result<std::set<std::string>> pte_operators(const std::vector<uint8_t>& bytes);

// The dtypes (ScalarType codes) of the tensors each operator's calls take or write, over the
// methods of a .pte (KernelCall instructions; delegate calls excluded).
Result<std::map<std::string, std::set<int>>> pte_operator_dtypes(const std::vector<uint8_t>& bytes);

// Operators from an op list: `inspect --json` output (every method's "operators" keys), a JSON
// array of names, or plain text with one name per line (# comments allowed).
Result<std::set<std::string>> op_list_operators(const std::string& text);

struct SelectiveOptions {
  std::string ns;      // C++ namespace of register_kernels()/kernels(), "a::b"
  std::string header;  // include path of the generated header
  std::vector<std::string> sources;  // shown in the generated comment
};

// The generated .cc registering exactly `ops` (sorted). OperatorMissing naming every operator
// neither in `table` nor in `provided` (ops registered elsewhere, e.g. prim ops): the program
// could not load with this library.
Result<std::string> selective_source(const KernelTable& table, const std::set<std::string>& ops,
                                     const std::set<std::string>& provided,
                                     const SelectiveOptions& options);
std::string selective_header(const SelectiveOptions& options);

// The dtype selection header (kernels/portable/util/dispatch.h, EMBER_DTYPE_SELECTION_HEADER):
// names every selected (operator, dtypes) pair and defines EMBER_SELECTED_DTYPES, the mask of
// the dtypes the kernels are compiled for. An operator of `ops` missing from `op_dtypes` (named by
// an op list, whose dtypes are unknown) selects every dtype unless `extra_dtypes` is non-empty;
// `extra_dtypes` (ScalarType codes) are always added. `provided` operators are not kernels here.
std::string selective_dtype_header(const std::set<std::string>& ops,
                                   const std::map<std::string, std::set<int>>& op_dtypes,
                                   const std::set<std::string>& provided,
                                   const std::set<int>& extra_dtypes, const SelectiveOptions& options);

// "Float" -> 6 (ScalarType names as runtime/core/scalar_type.h spells them); -1 if unknown.
int scalar_type_code(const std::string& name);

}  // namespace ember::aot
