// The generator behind ember_selective_kernels (build_defs/ember.bzl):
//
//   selective_kernels --table kernels/portable/register_kernels.cc
//       [--provided runtime/kernel/prim_ops/prim_ops.cc]... [--pte a.pte]... [--op_list ops.json]...
//       [--op aten::add.out]... [--provided_op mylib::foo.out]... --namespace app::kernels --header pkg/name.h
//       --out_cc name.cc --out_h name.h [--out_dtypes name_dtypes.h [--dtype Float]...]
//
// With --out_dtypes it also writes the dtype selection header (selective build by operator and
// dtype: kernels/portable/util/dispatch.h).
//
// Exit status 1 with a named error (an operator no kernel provides, an unreadable file).
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "apps/selective_kernels/selective_kernels.h"

namespace {

using ember::aot::Error;
using ember::aot::format_error;

bool read_file(const std::string& path, std::string* out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  out->assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  return true;
}

bool write_file(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  return static_cast<bool>(f);
}

// "bazel-out/k8-fastbuild/bin/pkg/a.pte" -> "pkg/a.pte": the comment does not depend on the
// configuration.
std::string shown(const std::string& path) {
  if (path.rfind("bazel-out/", 0) != 0) return path;
  size_t cut = path.find('/', path.find('/', 10) + 1);
  return cut == std::string::npos ? path : path.substr(cut + 1);
}

int die(const std::string& message) {
  std::fprintf(stderr, "selective_kernels: %s\n", message.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::string table_path, ns, header, out_cc, out_h, out_dtypes;
  std::vector<std::string> provided_paths, provided_ops, ptes, op_lists, ops_flag, dtype_flags;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) return die("flag " + a + " needs a value");
    const std::string v = argv[++i];
    if (a == "--table") table_path = v;
    else if (a == "--provided") provided_paths.push_back(v);
    else if (a == "--pte") ptes.push_back(v);
    else if (a == "--op_list") op_lists.push_back(v);
    else if (a == "--op") ops_flag.push_back(v);
    else if (a == "--provided_op") provided_ops.push_back(v);
    else if (a == "--namespace") ns = v;
    else if (a == "--header") header = v;
    else if (a == "--out_cc") out_cc = v;
    else if (a == "--out_h") out_h = v;
    else if (a == "--out_dtypes") out_dtypes = v;
    else if (a == "--dtype") dtype_flags.push_back(v);
    else return die("unknown flag " + a);
  }
  if (table_path.empty() || ns.empty() || header.empty() || out_cc.empty() || out_h.empty()) {
    return die("--table, --namespace, --header, --out_cc and --out_h are required");
  }
  std::string text;
  if (!read_file(table_path, &text)) return die("cannot read " + table_path);
  auto table = ember::aot::parse_kernel_table(text);
  if (!table.ok()) return die(format_error(table.error()));
  std::set<std::string> provided(provided_ops.begin(), provided_ops.end());
  for (const std::string& p : provided_paths) {
    if (!read_file(p, &text)) return die("cannot read " + p);
    for (const std::string& op : ember::aot::parse_provided_ops(text)) provided.insert(op);
  }
  ember::aot::SelectiveOptions options;
  options.ns = ns;
  options.header = header;
  std::set<std::string> ops(ops_flag.begin(), ops_flag.end());
  std::map<std::string, std::set<int>> op_dtypes;
  std::set<int> extra_dtypes;
  for (const std::string& d : dtype_flags) {
    const int code = ember::aot::scalar_type_code(d);
    if (code < 0) return die("--dtype " + d + ": not a dtype name (Float, Long, Half, ...)");
    extra_dtypes.insert(code);
  }
  for (const std::string& p : ptes) {
    if (!read_file(p, &text)) return die("cannot read " + p);
    const std::vector<uint8_t> bytes(text.begin(), text.end());
    auto found = ember::aot::pte_operators(bytes);
    if (!found.ok()) return die(p + ": " + format_error(found.error()));
    ops.insert(found->begin(), found->end());
    auto dtypes = ember::aot::pte_operator_dtypes(bytes);
    if (!dtypes.ok()) return die(p + ": " + format_error(dtypes.error()));
    for (const auto& [op, codes] : *dtypes) op_dtypes[op].insert(codes.begin(), codes.end());
    options.sources.push_back(shown(p));
  }
  for (const std::string& p : op_lists) {
    if (!read_file(p, &text)) return die("cannot read " + p);
    auto found = ember::aot::op_list_operators(text);
    if (!found.ok()) return die(p + ": " + format_error(found.error()));
    ops.insert(found->begin(), found->end());
    options.sources.push_back(shown(p));
  }
  for (const std::string& op : ops_flag) options.sources.push_back("op " + op);
  auto source = ember::aot::selective_source(*table, ops, provided, options);
  if (!source.ok()) return die(format_error(source.error()));
  if (!write_file(out_cc, *source) || !write_file(out_h, ember::aot::selective_header(options))) {
    return die("cannot write " + out_cc + " / " + out_h);
  }
  if (!out_dtypes.empty() &&
      !write_file(out_dtypes, ember::aot::selective_dtype_header(ops, op_dtypes, provided, extra_dtypes, options))) {
    return die("cannot write " + out_dtypes);
  }
  return 0;
}
