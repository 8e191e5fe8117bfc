// The executor_runner binary (the tool itself is executor_runner.cc).
#include "apps/executor_runner/executor_runner.h"

int main(int argc, char** argv) { return ember::runtime::executor_runner_main(argc, argv); }
