// MethodMeta: what a method needs and returns, read from the program without
// loading it: input/output kinds and tensor shapes, the sizes of the planned
// buffers the caller must supply, the backends and instruction count. All
// values come from the (verified) file, so every accessor checks its index and
// the presence of what it reads. Valid as long as the Program.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/evalue.h"
#include "runtime/core/result.h"
#include "runtime/core/scalar_type.h"
#include "runtime/core/span.h"

namespace ember::runtime {

// The declared shape of one tensor input or output (upper bounds for dynamic tensors).
class TensorInfo final {
 public:
  TensorInfo(Span<const int32_t> sizes, Span<const uint8_t> dim_order, ScalarType type,
             bool is_memory_planned, bool is_dynamic, const char* name)
      : sizes_(sizes),
        dim_order_(dim_order),
        type_(type),
        planned_(is_memory_planned),
        dynamic_(is_dynamic),
        name_(name) {}

  Span<const int32_t> sizes() const { return sizes_; }
  Span<const uint8_t> dim_order() const { return dim_order_; }
  ScalarType scalar_type() const { return type_; }
  // True when the data lives in planned memory or is a constant.
  bool is_memory_planned() const { return planned_; }
  bool is_dynamic() const { return dynamic_; }
  size_t nbytes() const;
  // Fully qualified name if the file gives one, else "".
  const char* name() const { return name_; }

 private:
  Span<const int32_t> sizes_;
  Span<const uint8_t> dim_order_;
  ScalarType type_;
  bool planned_;
  bool dynamic_;
  const char* name_;
};

class MethodMeta final {
 public:
  // `plan` is an executorch_flatbuffer::ExecutionPlan (executor sources only).
  explicit MethodMeta(const void* plan) : plan_(plan) {}

  const char* name() const;
  size_t num_inputs() const;
  Result<Tag> input_tag(size_t i) const;
  Result<TensorInfo> input_tensor_meta(size_t i) const;
  size_t num_outputs() const;
  Result<Tag> output_tag(size_t i) const;
  Result<TensorInfo> output_tensor_meta(size_t i) const;

  // len(non_const_buffer_sizes) - 1 (entry 0 is a placeholder).
  size_t num_memory_planned_buffers() const;
  // Size in bytes of planned buffer i (0-based); InvalidProgram if negative.
  Result<int64_t> memory_planned_buffer_size(size_t i) const;

  size_t num_backends() const;
  Result<const char*> get_backend_name(size_t i) const;
  bool uses_backend(const char* name) const;
  size_t num_instructions() const;

  // Mutable buffers: planned tensors whose contents outlive an execute() (a KV cache, a step
  // counter). A program marks them by giving a planned tensor initial contents (data_buffer_idx
  // with allocation_info, from mutable_data_segments) or a name (extra_tensor_info's
  // fully_qualified_name, upstream's emit_mutable_buffer_names); a program that marks none has
  // none here (its state is then only known as the planned buffers whole).
  size_t num_values() const;
  bool is_mutable_buffer(size_t value_index) const;
  // Bytes of every mutable buffer at its declared (upper-bound) size; InvalidProgram when a
  // size overflows.
  Result<uint64_t> mutable_buffer_bytes() const;

 private:
  Result<Tag> value_tag(const void* indices, size_t i, const char* what) const;
  Result<TensorInfo> value_tensor_meta(const void* indices, size_t i, const char* what) const;

  const void* plan_;
};

}  // namespace ember::runtime
