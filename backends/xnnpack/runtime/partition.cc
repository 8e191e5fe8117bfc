// Stage partitioning and dataflow validation; see partition.h.
#include "backends/xnnpack/runtime/partition.h"

#include "runtime/core/diagnostics.h"

namespace ember::backends::xnnpack {
namespace {

using runtime::Error;
using runtime::fail;

constexpr uint32_t kNone = 0xFFFFFFFFu;

Error check_externals(const GraphModel& m, Partition* p) {
  for (uint32_t e = 0; e < m.num_externs; ++e) p->extern_value[e] = kNone;
  for (uint32_t v = 0; v < m.num_values; ++v) {
    const ValueInfo& info = m.values[v];
    if (info.flags == 0) continue;
    if (info.flags == 0x3) {
      return fail(Error::InvalidProgram, "XNNPACK value %u: both graph input and graph output", v);
    }
    if (p->extern_value[info.external_id] != kNone) {
      return fail(Error::InvalidProgram, "XNNPACK value %u: external_id %u already used by value %u",
                  v, info.external_id, p->extern_value[info.external_id]);
    }
    p->extern_value[info.external_id] = v;
  }
  for (uint32_t e = 0; e < m.num_externs; ++e) {
    if (p->extern_value[e] == kNone) {
      return fail(Error::InvalidProgram, "XNNPACK graph: no value has external_id %u (num_externs %u)",
                  e, m.num_externs);
    }
  }
  return Error::Ok;
}

// producer_stage[v]: stage producing v, kNone for constants and graph inputs.
Error check_dataflow(const GraphModel& m, const uint32_t* stage_of, uint32_t* producer_stage) {
  for (uint32_t v = 0; v < m.num_values; ++v) producer_stage[v] = kNone;
  for (uint32_t i = 0; i < m.num_nodes; ++i) {
    const NodeDesc& d = m.nodes[i];
    for (uint32_t k = 0; k < d.num_inputs; ++k) {
      const uint32_t v = d.inputs[k];
      if (v == kInvalidId) continue;
      const ValueInfo& info = m.values[v];
      if (info.data == nullptr && !is_graph_input(info) && producer_stage[v] == kNone) {
        return fail(Error::InvalidProgram,
                    "XNNPACK node %u (%s): input %u (value %u) is not a constant, a graph input "
                    "or the output of an earlier node", i, node_type_name(d.type), k, v);
      }
    }
    for (uint32_t k = 0; k < d.num_outputs; ++k) {
      const uint32_t v = d.outputs[k];
      const ValueInfo& info = m.values[v];
      if (info.data != nullptr || is_graph_input(info) || producer_stage[v] != kNone) {
        return fail(Error::InvalidProgram,
                    "XNNPACK node %u (%s): output %u (value %u) is a constant, a graph input or "
                    "already written by another node", i, node_type_name(d.type), k, v);
      }
      producer_stage[v] = stage_of[i];
    }
  }
  for (uint32_t v = 0; v < m.num_values; ++v) {
    if (is_graph_output(m.values[v]) && producer_stage[v] == kNone) {
      return fail(Error::InvalidProgram, "XNNPACK value %u: graph output that no node writes", v);
    }
  }
  return Error::Ok;
}

// Assigns stages; NotSupported for nodes nobody runs.
Error assign_stages(const GraphModel& m, uint32_t* stage_of, uint32_t* num_stages) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < m.num_nodes; ++i) {
    const NodeDesc& d = m.nodes[i];
    if (d.runner == NodeRunner::Unsupported) {
      return fail(Error::NotSupported,
                  "XNNPACK node %u (%s): not supported by the XNNPACK delegate (XNNPACK "
                  "0.0~git20241108)",
                  i, node_type_name(d.type));
    }
    const bool joins = i > 0 && d.runner == NodeRunner::Subgraph &&
                       m.nodes[i - 1].runner == NodeRunner::Subgraph;
    stage_of[i] = joins ? n - 1 : n++;
  }
  *num_stages = n;
  return Error::Ok;
}

// A subgraph node's output that no node reads and that is no graph output still needs
// memory: this XNNPACK gives unconsumed values no workspace, so setup would see a null
// pointer (found by xnnpack_blob_fuzz). They get a delegate buffer like boundary values.
void mark_unread_outputs(const GraphModel& m, uint32_t* scratch, Partition* p) {
  uint32_t* read = scratch;
  for (uint32_t v = 0; v < m.num_values; ++v) read[v] = 0;
  for (uint32_t i = 0; i < m.num_nodes; ++i) {
    for (uint32_t k = 0; k < m.nodes[i].num_inputs; ++k) {
      if (m.nodes[i].inputs[k] != kInvalidId) read[m.nodes[i].inputs[k]] = 1;
    }
  }
  for (uint32_t i = 0; i < m.num_nodes; ++i) {
    const NodeDesc& d = m.nodes[i];
    for (uint32_t k = 0; d.runner != NodeRunner::Unsupported && k < d.num_outputs; ++k) {
      if (read[d.outputs[k]] == 0 && m.values[d.outputs[k]].flags == 0) p->boundary[d.outputs[k]] = true;
    }
  }
}

}  // namespace

Error build_partition(const GraphModel& m, runtime::MemoryAllocator* a, Partition* p) {
  const size_t nv = m.num_values == 0 ? 1 : m.num_values;
  const size_t nn = m.num_nodes == 0 ? 1 : m.num_nodes;
  uint32_t* stage_of = a->allocate_list<uint32_t>(nn);
  uint32_t* producer = a->allocate_list<uint32_t>(nv);
  p->boundary = a->allocate_list<bool>(nv);
  p->feeds_subgraph = a->allocate_list<bool>(nv);
  p->extern_value = a->allocate_list<uint32_t>(m.num_externs == 0 ? 1 : m.num_externs);
  if (!stage_of || !producer || !p->boundary || !p->feeds_subgraph || !p->extern_value) {
    return fail(Error::MemoryAllocationFailed, "XNNPACK: no memory for the stage partition");
  }
  EMBER_TRY(check_externals(m, p));
  EMBER_TRY(assign_stages(m, stage_of, &p->num_stages));
  EMBER_TRY(check_dataflow(m, stage_of, producer));
  p->stages = a->allocate_list<Stage>(p->num_stages == 0 ? 1 : p->num_stages);
  if (p->stages == nullptr) return fail(Error::MemoryAllocationFailed, "XNNPACK: no memory for stages");
  for (uint32_t v = 0; v < m.num_values; ++v) p->boundary[v] = p->feeds_subgraph[v] = false;
  for (uint32_t i = 0; i < m.num_nodes; ++i) {
    const NodeDesc& d = m.nodes[i];
    Stage& s = p->stages[stage_of[i]];
    if (i == 0 || stage_of[i] != stage_of[i - 1]) s = Stage{d.runner, i, i, nullptr, 0};
    s.end_node = i + 1;
    for (uint32_t k = 0; k < d.num_inputs + d.num_outputs; ++k) {
      const bool is_in = k < d.num_inputs;
      const uint32_t v = is_in ? d.inputs[k] : d.outputs[k - d.num_inputs];
      if (v == kInvalidId || m.values[v].data != nullptr || m.values[v].flags != 0) continue;
      // Values that cross stages need real buffers.
      if (is_in && producer[v] != stage_of[i]) {
        p->boundary[v] = true;
      }
    }
    for (uint32_t k = 0; k < d.num_inputs; ++k) {
      // A Winograd node may run as a one-node subgraph (winograd_stage.h).
      if (d.inputs[k] != kInvalidId && d.runner != NodeRunner::Unsupported) {
        p->feeds_subgraph[d.inputs[k]] = true;
      }
    }
  }
  mark_unread_outputs(m, producer, p);
  // External lists of stages (a Winograd stage's too: it may run as a one-node subgraph):
  // non-constant values they touch that are graph externals or boundary values.
  uint32_t* mark = producer;  // reuse: last stage that listed the value
  for (uint32_t v = 0; v < m.num_values; ++v) mark[v] = kNone;
  for (uint32_t s = 0; s < p->num_stages; ++s) {
    Stage& st = p->stages[s];
    uint32_t* list = a->allocate_list<uint32_t>(nv);
    if (list == nullptr) return fail(Error::MemoryAllocationFailed, "XNNPACK: no memory for stages");
    for (uint32_t i = st.first_node; i < st.end_node; ++i) {
      const NodeDesc& d = m.nodes[i];
      for (uint32_t k = 0; k < d.num_inputs + d.num_outputs; ++k) {
        const uint32_t v = k < d.num_inputs ? d.inputs[k] : d.outputs[k - d.num_inputs];
        if (v == kInvalidId || m.values[v].data != nullptr || mark[v] == s) continue;
        if (m.values[v].flags == 0 && !p->boundary[v]) continue;
        mark[v] = s;
        list[st.num_externals++] = v;
      }
    }
    st.externals = list;
  }
  return Error::Ok;
}

}  // namespace ember::backends::xnnpack
