// Writes the hand-made seed programs for the fuzzer into a directory: the
// builder's good program (with and without segments) and mutated bad ones.
#include <cstdio>
#include <string>

#include "runtime/executor/testing/program_builder.h"

using ember::testing::make_add_program;
using ember::testing::serialize;

namespace {

void write(const std::string& dir, const std::string& name, const std::vector<uint8_t>& bytes) {
  FILE* f = fopen((dir + "/" + name).c_str(), "wb");
  if (f == nullptr) return;
  fwrite(bytes.data(), 1, bytes.size(), f);
  fclose(f);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: write_seeds DIR\n");
    return 2;
  }
  const std::string dir = argv[1];
  write(dir, "add.pte", serialize(*make_add_program()));
  write(dir, "add_segments.pte", serialize(*make_add_program(), {{1, 2, 3, 4}, {5, 6}}));
  auto p = make_add_program();
  p->execution_plan[0]->chains[0]->instructions[0]->instr_args.AsKernelCall()->args[1] = 17;
  write(dir, "bad_value_index.pte", serialize(*p));
  p = make_add_program();
  p->execution_plan[0]->non_const_buffer_sizes = {0, int64_t(512) << 20};
  write(dir, "huge_arena.pte", serialize(*p));
  p = make_add_program();
  p->execution_plan[0]->values[3]->val.AsTensor()->shape_dynamism = ember::testing::fbs::TensorShapeDynamism::DYNAMIC_BOUND;
  write(dir, "dynamic_out.pte", serialize(*p));
  std::vector<uint8_t> truncated = serialize(*make_add_program(), {{1, 2, 3}});
  truncated.resize(truncated.size() / 2);
  write(dir, "truncated.pte", truncated);
  return 0;
}
