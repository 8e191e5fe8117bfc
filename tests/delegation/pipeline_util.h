// Test-only glue for the delegation tests: run a graph built in C++ through the real
// stage list (to_edge -> transform -> to_backend -> to_executorch -> emit) with an
// ExportSession, a backend registry holding DemoBackend, and float32 host tensors.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "aot/backend/partitioner.h"
#include "aot/passes/pass.h"
#include "aot/recipe/export_session.h"
#include "aot/ir/host_tensor.h"
#include "runtime/backend/backend_registry.h"

namespace ember::testing {

// An ExportSession over `graph` (in place of the .pt2 load stage).
aot::ExportSession session_for(aot::Graph graph,
                               std::vector<std::shared_ptr<const aot::Partitioner>> partitioners,
                               std::vector<std::shared_ptr<const aot::Pass>> passes = {});

// A registry with DemoBackend registered (built once).
const runtime::BackendRegistry& demo_registry();

aot::HostTensor f32(std::vector<int64_t> sizes, const std::vector<float>& values);
std::vector<float> floats(const aot::HostTensor& t);

// Runs `method` of `pte` with DemoBackend available.
aot::Result<std::vector<aot::HostTensor>> run_with_demo(const std::vector<uint8_t>& pte,
                                                          const std::string& method,
                                                          const std::vector<aot::HostTensor>& in);

}  // namespace ember::testing
