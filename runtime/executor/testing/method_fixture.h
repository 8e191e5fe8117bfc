// MethodFixture: a gtest fixture that loads an in-memory program (program_builder.h) and
// its "forward" method with the test kernels (test_kernels.h), an empty backend registry,
// a 256-byte planned arena and a 16 KiB method allocator, all owned by the fixture.
//
//   class MyTest : public MethodFixture {};
//   TEST_F(MyTest, Adds) { auto method = load(*make_add_program()); ... }
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>

#include "runtime/executor/program.h"
#include "runtime/executor/testing/program_builder.h"
#include "runtime/executor/testing/test_kernels.h"
#include "runtime/kernel/kernel_registry.h"
#include "runtime/loader/buffer_data_loader.h"

namespace ember::testing {

class MethodFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(register_test_kernels(kernels_), runtime::Error::Ok);
    options_.kernels = &kernels_;
    options_.backends = &backends_;
  }

  // Loads `program` into this fixture; returns its "forward" method.
  runtime::Result<runtime::Method> load(const fbs::ProgramT& program) {
    bytes_ = std::make_unique<AlignedBytes>(serialize(program));
    loader_ = std::make_unique<runtime::BufferDataLoader>(bytes_->data(), bytes_->size());
    auto p = runtime::Program::load(loader_.get());
    if (!p.ok()) return p.error();
    program_ = std::make_unique<runtime::Program>(std::move(*p));
    spans_[0] = runtime::Span<uint8_t>(arena_, sizeof(arena_));
    planned_ = runtime::HierarchicalAllocator(runtime::Span<runtime::Span<uint8_t>>(spans_, 1));
    method_allocator_ = runtime::MemoryAllocator(pool_, sizeof(pool_));
    memory_ = std::make_unique<runtime::MemoryManager>(&method_allocator_, &planned_);
    return program_->load_method("forward", memory_.get(), options_);
  }

  runtime::FixedKernelRegistry<16> kernels_;
  runtime::BackendRegistry backends_;
  runtime::MethodLoadOptions options_;
  std::unique_ptr<AlignedBytes> bytes_;
  std::unique_ptr<runtime::BufferDataLoader> loader_;
  std::unique_ptr<runtime::Program> program_;
  runtime::Span<uint8_t> spans_[1];
  runtime::HierarchicalAllocator planned_;
  runtime::MemoryAllocator method_allocator_;
  std::unique_ptr<runtime::MemoryManager> memory_;
  alignas(16) uint8_t arena_[256] = {};
  alignas(16) uint8_t pool_[16384];
};

}  // namespace ember::testing
