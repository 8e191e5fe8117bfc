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
// Exit status (docs/error_handling.md) 1 with a named error (an operator no kernel provides,
// an unreadable file, an output that cannot be written: both outputs are written atomically,
// apps/common/atomic_file.h), 2 on bad usage (an unknown or incomplete flag, with the nearest
// known flag; an output naming an input).
#include <cstdio>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "apps/common/atomic_file.h"
#include "apps/common/path_collision.h"
#include "apps/common/printable.h"
#include "apps/common/unknown_flags.h"
#include "apps/selective_kernels/selective_kernels.h"
#include "runtime/loader/file_data_loader.h"

namespace {

using ember::aot::Error;
using ember::aot::format_error;

// Reads a whole input through the runtime's file loader (O_NONBLOCK + fstat): a FIFO, a
// device or a directory is a named error at once instead of a blocked open() or an endless
// read (issue #33: `--pte` naming a FIFO hung, /dev/zero read forever).
Error read_file(const std::string& path, std::string* out) {
  auto file = ember::runtime::FileDataLoader::from(path.c_str());
  if (!file.ok()) return file.error();
  out->assign(*file->size(), '\0');
  if (out->empty()) return Error::Ok;
  return file->load_into(0, out->size(), ember::runtime::SegmentInfo{}, out->data());
}

constexpr const char* kFlags[] = {"--table", "--provided", "--pte", "--op_list", "--op",
                                   "--provided_op", "--namespace", "--header", "--out_cc", "--out_h",
                                   "--out_dtypes", "--dtype"};

// "bazel-out/k8-fastbuild/bin/pkg/a.pte" -> "pkg/a.pte": the comment does not depend on the
// configuration.
std::string shown(const std::string& path) {
  if (path.rfind("bazel-out/", 0) != 0) return path;
  size_t cut = path.find('/', path.find('/', 10) + 1);
  return cut == std::string::npos ? path : path.substr(cut + 1);
}

int die(const std::string& message, int status = 1) {
  std::fprintf(stderr, "selective_kernels: %s\n", ember::apps::printable(message).c_str());
  return status;
}

int usage(const std::string& message) {
  return die(format_error(ember::aot::fail(Error::InvalidArgument, message)), 2);
}

}  // namespace

int main(int argc, char** argv) {
  std::string table_path, ns, header, out_cc, out_h, out_dtypes;
  std::vector<std::string> provided_paths, provided_ops, ptes, op_lists, ops_flag, dtype_flags;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) return usage("flag " + a + " needs a value");
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
    else {
      std::vector<std::string> known(std::begin(kFlags), std::end(kFlags));
      const std::string near = ember::apps::closest_flag(a, known);
      return usage("unknown flag '" + a + "'" + (near.empty() ? "" : "; did you mean '" + near + "'?"));
    }
  }
  if (table_path.empty() || ns.empty() || header.empty() || out_cc.empty() || out_h.empty()) {
    return usage("--table, --namespace, --header, --out_cc and --out_h are required");
  }
  std::vector<ember::apps::PathUse> inputs = {{"--table", table_path}};
  for (const std::string& p : provided_paths) inputs.push_back({"--provided", p});
  for (const std::string& p : ptes) inputs.push_back({"--pte", p});
  for (const std::string& p : op_lists) inputs.push_back({"--op_list", p});
  std::vector<ember::apps::PathUse> outputs = {{"--out_cc", out_cc}, {"--out_h", out_h}};
  if (!out_dtypes.empty()) outputs.push_back({"--out_dtypes", out_dtypes});
  if (ember::apps::check_path_collisions(inputs, outputs) != Error::Ok) {
    return die(format_error(Error::InvalidArgument), 2);
  }
  std::string text;
  if (Error e = read_file(table_path, &text); e != Error::Ok) return die("--table: " + format_error(e));
  auto table = ember::aot::parse_kernel_table(text);
  if (!table.ok()) return die(format_error(table.error()));
  std::set<std::string> provided(provided_ops.begin(), provided_ops.end());
  for (const std::string& p : provided_paths) {
    if (Error e = read_file(p, &text); e != Error::Ok) return die("--provided: " + format_error(e));
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
    if (Error e = read_file(p, &text); e != Error::Ok) return die("--pte: " + format_error(e));
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
    if (Error e = read_file(p, &text); e != Error::Ok) return die("--op_list: " + format_error(e));
    auto found = ember::aot::op_list_operators(text);
    if (!found.ok()) return die(p + ": " + format_error(found.error()));
    ops.insert(found->begin(), found->end());
    options.sources.push_back(shown(p));
  }
  for (const std::string& op : ops_flag) options.sources.push_back("op " + op);
  auto source = ember::aot::selective_source(*table, ops, provided, options);
  if (!source.ok()) return die(format_error(source.error()));
  // All files reach their temporaries before any is renamed (a build never sees a new
  // .cc with an old .h after a full disk).
  std::vector<std::pair<std::string, std::string>> outputs_text = {
      {out_cc, *source}, {out_h, ember::aot::selective_header(options)}};
  if (!out_dtypes.empty()) {
    outputs_text.emplace_back(out_dtypes, ember::aot::selective_dtype_header(
                                              ops, op_dtypes, provided, extra_dtypes, options));
  }
  std::vector<ember::apps::AtomicFile> files;
  for (const auto& [path, text] : outputs_text) {
    auto file = ember::apps::AtomicFile::create(path);
    if (!file.ok()) return die(format_error(file.error()));
    if (Error e = file->write(text); e != Error::Ok) return die(format_error(e));
    files.push_back(std::move(*file));
  }
  const Error e = ember::apps::commit_all(files);
  return e == Error::Ok ? 0 : die(format_error(e));
}
