// MemoryManager: the three kinds of memory a method uses, named by lifetime.
//  - method allocator (required): everything built at load time (value table,
//    tensor descriptors, argument lists, delegate handles); lives as long as
//    the Method.
//  - planned memory (required when the program plans tensors): the arenas of
//    the program's memory plan.
//  - temp allocator (optional): kernel and delegate scratch, reset after every
//    instruction.
// Nothing is owned; the caller keeps all three alive longer than the Method.
#pragma once

#include "runtime/core/hierarchical_allocator.h"
#include "runtime/core/memory_allocator.h"

namespace ember::runtime {

class MemoryManager final {
 public:
  explicit MemoryManager(MemoryAllocator* method_allocator,
                         HierarchicalAllocator* planned_memory = nullptr,
                         MemoryAllocator* temp_allocator = nullptr)
      : method_allocator_(method_allocator),
        planned_memory_(planned_memory),
        temp_allocator_(temp_allocator) {}

  MemoryAllocator* method_allocator() const { return method_allocator_; }
  HierarchicalAllocator* planned_memory() const { return planned_memory_; }
  MemoryAllocator* temp_allocator() const { return temp_allocator_; }

 private:
  MemoryAllocator* method_allocator_;
  HierarchicalAllocator* planned_memory_;
  MemoryAllocator* temp_allocator_;
};

}  // namespace ember::runtime
