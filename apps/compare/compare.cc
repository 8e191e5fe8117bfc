// compare REFERENCE_DUMP OTHER_DUMP [--max_db 60] [--drop_db 10] [--json]: lines up two
// executor_runner --dump_intermediates directories by name and prints per-layer max absolute
// error and SQNR, and the first layer whose error jumps (dump_compare.h has the rule;
// docs/profiling.md walks through it). Exit 0 after a report, 1 on a bad dump, 2 on bad usage.
#include <gflags/gflags.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "apps/common/printable.h"
#include "apps/common/unknown_flags.h"
#include "apps/compare/dump_compare.h"

DEFINE_double(max_db, 60, "A layer can only jump when its SQNR is below this.");
DEFINE_double(drop_db, 10, "...and at least this much below every earlier layer's SQNR.");
DEFINE_bool(json, false, "Print the report as one JSON object.");

namespace {

int die(ember::aot::Error err, int status) {
  fprintf(stderr, "compare: %s\n", ember::apps::printable_message(ember::aot::format_error(err)).c_str());
  return status;
}

nlohmann::json number(double v) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  gflags::SetUsageMessage("compare REFERENCE_DUMP_DIR OTHER_DUMP_DIR [--max_db 60] [--drop_db 10] [--json]");
  if (ember::runtime::Error err = ember::apps::check_unknown_flags(argc, argv); err != ember::runtime::Error::Ok) {
    return die(err, 2);
  }
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  if (argc != 3) {
    return die(ember::aot::invalid_argument("expected two dump directories (executor_runner --dump_intermediates)"), 2);
  }
  if (const char* cwd = getenv("BUILD_WORKING_DIRECTORY"); cwd != nullptr && *cwd != '\0' && chdir(cwd) != 0) {
    return die(ember::aot::invalid_argument("cannot enter BUILD_WORKING_DIRECTORY"), 2);
  }
  using namespace ember::aot;  // NOLINT
  Result<Dump> a = load_dump(argv[1]);
  if (!a.ok()) return die(a.error(), 1);
  Result<Dump> b = load_dump(argv[2]);
  if (!b.ok()) return die(b.error(), 1);
  JumpRule rule;
  rule.max_db = FLAGS_max_db;
  rule.drop_db = FLAGS_drop_db;
  Result<CompareReport> r = compare_dumps(*a, *b, rule);
  if (!r.ok()) return die(r.error(), 1);
  if (!FLAGS_json) {
    fputs(format_report(*a, *b, *r, rule).c_str(), stdout);
    return 0;
  }
  nlohmann::json layers = nlohmann::json::array();
  for (const LayerDiff& L : r->layers) {
    nlohmann::json j{{"name", L.name}, {"op", L.op}, {"source", L.source}, {"shape", L.shape},
                     {"compared", L.compared}};
    if (L.compared) {
      j["max_abs"] = number(L.max_abs);
      j["sqnr_db"] = number(L.sqnr_db);
    } else {
      j["note"] = L.note;
    }
    layers.push_back(std::move(j));
  }
  nlohmann::json doc{{"layers", layers},
                     {"only_in_reference", r->only_in_a},
                     {"only_in_other", r->only_in_b},
                     {"first_jump", r->first_jump >= 0 ? nlohmann::json(r->layers[size_t(r->first_jump)].name)
                                                        : nlohmann::json(nullptr)}};
  printf("%s\n", doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
  return 0;
}
