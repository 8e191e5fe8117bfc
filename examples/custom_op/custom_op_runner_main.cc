// executor_runner with the example's custom operator kernel linked in: the same tool and flags
// as //apps/executor_runner, plus mylib::scaled_add.out.
//   bazel run //examples/custom_op:custom_op_runner -- --model_path=scaled_add.pte ...
#include "examples/custom_op/scaled_add_kernel.h"
#include "apps/executor_runner/executor_runner.h"

int main(int argc, char** argv) {
  return ember::runtime::executor_runner_main(argc, argv, &mylib::register_kernels);
}
