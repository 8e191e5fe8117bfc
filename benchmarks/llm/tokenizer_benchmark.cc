// Encoding speed of //llm/tokenizer on the agreement corpus, one thread, in bytes per second:
// one benchmark per tokenizer, each iteration encodes every record once.
//
//   bazel run -c opt //benchmarks/llm:tokenizer_benchmark -- --dir=/tmp/ember_tok
//       [--names=gpt2,llama3] [--benchmark_format=json]
//
// DIR is what refgen/llm_tokenizers/train_and_reference.py writes. The Python peer
// (python_encode_peer.py) runs in the same session through run_tokenizer_bench.sh.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <sstream>

#include "llm/tokenizer/agreement/agreement.h"
#include "runtime/core/diagnostics.h"

namespace {

using ember::llm::Tokenizer;

std::vector<std::string> g_records;
size_t g_bytes = 0;

void encode_corpus(benchmark::State& state, const Tokenizer* tokenizer, bool add_special) {
  size_t ids = 0;
  for (auto _ : state) {
    for (const std::string& record : g_records) {
      auto r = tokenizer->encode(record, add_special);
      ids += r.ok() ? r->size() : 0;
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * g_bytes));
  state.counters["ids_per_iteration"] = static_cast<double>(ids) / state.iterations();
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir, names_flag;
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--dir=", 6) == 0)
      dir = argv[i] + 6;
    else if (std::strncmp(argv[i], "--names=", 8) == 0)
      names_flag = argv[i] + 8;
    else
      rest.push_back(argv[i]);
  }
  if (dir.empty()) {
    std::fprintf(stderr, "usage: tokenizer_benchmark --dir=DIR [--names=a,b] [benchmark flags]\n");
    return 2;
  }
  auto corpus = ember::llm::read_text_file(dir + "/corpus.bin", size_t{1} << 31);
  if (!corpus.ok()) {
    std::fprintf(stderr, "%s\n", ember::runtime::last_error_message());
    return 2;
  }
  g_records = ember::llm::split_corpus(corpus.get());
  for (const auto& r : g_records) g_bytes += r.size();
  std::vector<std::string> names;
  if (names_flag.empty()) {
    names = ember::llm::agreement_tokenizer_names();
  } else {
    std::stringstream ss(names_flag);
    for (std::string n; std::getline(ss, n, ',');) names.push_back(n);
  }
  std::vector<std::unique_ptr<Tokenizer>> tokenizers;
  for (const std::string& name : names) {
    auto t = ember::llm::load_agreement_tokenizer(dir, name);
    if (!t.ok()) {
      std::fprintf(stderr, "%s: %s\n", name.c_str(), ember::runtime::last_error_message());
      return 2;
    }
    tokenizers.push_back(std::move(t.get()));
    benchmark::RegisterBenchmark(("encode/" + name).c_str(), encode_corpus, tokenizers.back().get(),
                                 ember::llm::agreement_adds_special_tokens(name))
        ->Unit(benchmark::kMillisecond)
        ->MinTime(1.0);
  }
  int rest_argc = static_cast<int>(rest.size());
  benchmark::Initialize(&rest_argc, rest.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
