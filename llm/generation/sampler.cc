#include "llm/generation/sampler.h"

#include <algorithm>
#include <cmath>

#include "runtime/core/diagnostics.h"

namespace ember::llm {

using runtime::Error;

Error check_sampling_config(const SamplingConfig& c) {
  EMBER_CHECK_OR_RETURN(c.temperature >= 0 && std::isfinite(c.temperature), InvalidArgument,
                        "temperature %g must be >= 0", c.temperature);
  EMBER_CHECK_OR_RETURN(c.top_k >= 0, InvalidArgument, "top_k %d must be >= 0", c.top_k);
  EMBER_CHECK_OR_RETURN(c.top_p > 0 && c.top_p <= 1, InvalidArgument, "top_p %g must be in (0, 1]",
                        c.top_p);
  EMBER_CHECK_OR_RETURN(c.min_p >= 0 && c.min_p <= 1, InvalidArgument, "min_p %g must be in [0, 1]",
                        c.min_p);
  EMBER_CHECK_OR_RETURN(c.repetition_penalty > 0 && std::isfinite(c.repetition_penalty),
                        InvalidArgument, "repetition_penalty %g must be > 0", c.repetition_penalty);
  return Error::Ok;
}

runtime::Result<Sampler> Sampler::create(const SamplingConfig& config) {
  EMBER_TRY(check_sampling_config(config));
  return Sampler(config);
}

runtime::Result<int32_t> Sampler::sample(const std::vector<float>& logits,
                                         const std::vector<int32_t>& history) {
  const size_t n = logits.size();
  EMBER_CHECK_OR_RETURN(n > 0, InvalidArgument, "sample: no logits");
  work_.assign(logits.begin(), logits.end());
  for (size_t i = 0; i < n; ++i) {
    EMBER_CHECK_OR_RETURN(!std::isnan(work_[i]), InvalidArgument, "sample: logit %zu is NaN", i);
  }
  if (config_.repetition_penalty != 1.0f) {
    std::vector<bool> seen(n, false);
    for (int32_t id : history) {
      if (id < 0 || static_cast<size_t>(id) >= n || seen[id]) continue;
      seen[id] = true;
      float& x = work_[id];
      x = x > 0 ? x / config_.repetition_penalty : x * config_.repetition_penalty;
    }
  }
  if (config_.temperature == 0.0f) {
    return static_cast<int32_t>(std::max_element(work_.begin(), work_.end()) - work_.begin());
  }
  for (float& x : work_) x /= config_.temperature;
  order_.resize(n);
  for (size_t i = 0; i < n; ++i) order_[i] = static_cast<int32_t>(i);
  auto by_logit = [&](int32_t a, int32_t b) {
    return work_[a] != work_[b] ? work_[a] > work_[b] : a < b;
  };
  size_t keep = n;
  if (config_.top_k > 0 && static_cast<size_t>(config_.top_k) < n) {
    keep = static_cast<size_t>(config_.top_k);
    std::partial_sort(order_.begin(), order_.begin() + keep, order_.end(), by_logit);
  } else {
    std::sort(order_.begin(), order_.end(), by_logit);
  }
  // Softmax over the kept candidates (largest first, so the max is work_[order_[0]]).
  const float max_logit = work_[order_[0]];
  std::vector<double> probs(keep);
  double total = 0;
  for (size_t i = 0; i < keep; ++i)
    total += probs[i] = std::exp(double(work_[order_[i]]) - max_logit);
  for (double& p : probs) p /= total;
  if (config_.top_p < 1.0f) {
    double mass = 0;
    size_t k = 0;
    while (k < keep && mass < config_.top_p) mass += probs[k++];
    keep = std::max<size_t>(k, 1);
  }
  if (config_.min_p > 0.0f) {
    const double floor = config_.min_p * probs[0];
    size_t k = 1;
    while (k < keep && probs[k] >= floor) ++k;
    keep = k;
  }
  double mass = 0;
  for (size_t i = 0; i < keep; ++i) mass += probs[i];
  const double target = rng_.uniform() * mass;
  double cumulative = 0;
  for (size_t i = 0; i < keep; ++i) {
    cumulative += probs[i];
    if (target < cumulative) return order_[i];
  }
  return order_[keep - 1];
}

}  // namespace ember::llm
