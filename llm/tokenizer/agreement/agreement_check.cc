// agreement_check DIR [NAME...]: the full agreement run. DIR holds corpus.bin, the tokenizer
// files and the *.ref references (refgen/llm_tokenizers/train_and_reference.py); prints one line
// per tokenizer and the first differences, exits 1 unless every record agrees.
#include <cstdio>

#include "llm/tokenizer/agreement/agreement.h"
#include "runtime/core/diagnostics.h"

int main(int argc, char** argv) {
  using namespace ember::llm;
  if (argc < 2) {
    std::fprintf(stderr, "usage: agreement_check DIR [NAME...]\n");
    return 2;
  }
  const std::string dir = argv[1];
  std::vector<std::string> names(argv + 2, argv + argc);
  if (names.empty()) names = agreement_tokenizer_names();
  auto corpus = read_text_file(dir + "/corpus.bin", size_t{1} << 31);
  if (!corpus.ok()) {
    std::fprintf(stderr, "%s\n", ember::runtime::last_error_message());
    return 2;
  }
  const std::vector<std::string> records = split_corpus(corpus.get());
  int failed = 0;
  for (const std::string& n : names) {
    auto tokenizer = load_agreement_tokenizer(dir, n);
    auto reference = read_text_file(dir + "/" + n + ".ref", size_t{1} << 31);
    if (!tokenizer.ok() || !reference.ok()) {
      std::printf("%-12s cannot load: %s\n", n.c_str(), ember::runtime::last_error_message());
      failed = 1;
      continue;
    }
    auto report = check_agreement(*tokenizer.get(), records, reference.get(),
                                  agreement_adds_special_tokens(n), 5);
    if (!report.ok()) {
      std::printf("%-12s error: %s\n", n.c_str(), ember::runtime::last_error_message());
      failed = 1;
      continue;
    }
    const AgreementReport& r = report.get();
    std::printf("%-12s %zu records, %zu bytes: ids differ in %zu, decoded text in %zu\n", n.c_str(),
                r.records, r.corpus_bytes, r.ids_differ, r.text_differs);
    for (const std::string& e : r.examples) std::printf("  %s\n", e.c_str());
    if (r.ids_differ != 0 || r.text_differs != 0) failed = 1;
  }
  return failed;
}
