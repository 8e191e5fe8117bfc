// Observers (see observer.h). Comments name the line of PyTorch's observer.py each step
// mirrors; float32 where PyTorch computes on float32 tensors.
#include "aot/quantize/observer.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ember::aot {
namespace {

// torch.linspace(start, end, steps) in float32 (the CPU kernel's halfway formula).
std::vector<float> linspace(float start, float end, int64_t steps) {
  std::vector<float> out(static_cast<size_t>(steps));
  if (steps == 1) {
    out[0] = start;
    return out;
  }
  const float step = (end - start) / float(steps - 1);
  const int64_t halfway = steps / 2;
  for (int64_t i = 0; i < steps; ++i) {
    out[size_t(i)] = i < halfway ? start + step * float(i) : end - step * float(steps - i - 1);
  }
  return out;
}

// torch.div(a, b, rounding_mode="floor") for floats.
float floor_div(float a, float b) {
  float mod = std::fmod(a, b);
  float div = (a - mod) / b;
  if (mod != 0 && ((b < 0) != (mod < 0))) div -= 1;
  float floordiv;
  if (div != 0) {
    floordiv = std::floor(div);
    if (div - floordiv > 0.5f) floordiv += 1.0f;
  } else {
    floordiv = std::copysign(0.0f, a / b);
  }
  return floordiv;
}

float round_half_even(float x) { return std::nearbyint(x); }

}  // namespace

AffineQParams affine_qparams(float min_val, float max_val, int64_t quant_min, int64_t quant_max,
                             float eps) {
  AffineQParams q;
  const float min_neg = std::min(min_val, 0.0f);
  const float max_pos = std::max(max_val, 0.0f);
  float scale = (max_pos - min_neg) / float(quant_max - quant_min);
  scale = std::max(scale, eps);
  int64_t zp = quant_min - int64_t(int32_t(round_half_even(min_neg / scale)));
  q.scale = scale;
  q.zero_point = std::clamp(zp, quant_min, quant_max);
  return q;
}

std::vector<float> symmetric_per_channel_scales(const float* data, int64_t numel,
                                                int64_t channels, int64_t quant_min,
                                                int64_t quant_max, float eps) {
  std::vector<float> scales(size_t(channels), 1.0f);
  if (channels <= 0) return scales;
  const int64_t per = numel / channels;
  const float half_range = float(double(quant_max - quant_min) / 2);
  for (int64_t c = 0; c < channels; ++c) {
    float mn = std::numeric_limits<float>::infinity(), mx = -mn;
    for (int64_t k = 0; k < per; ++k) {
      const float v = data[c * per + k];
      mn = std::min(mn, v);
      mx = std::max(mx, v);
    }
    const float min_neg = std::min(mn, 0.0f), max_pos = std::max(mx, 0.0f);
    const float m = std::max(-min_neg, max_pos);
    scales[size_t(c)] = std::max(m / half_range, eps);
  }
  return scales;
}

std::vector<float> histc(const float* x, size_t n, int64_t bins, double min, double max) {
  std::vector<float> hist(size_t(bins), 0.0f);
  double lo = min, hi = max;
  if (lo == hi && n > 0) {
    lo = *std::min_element(x, x + n);
    hi = *std::max_element(x, x + n);
  }
  if (lo == hi) {
    lo -= 1;
    hi += 1;
  }
  const float left = float(lo), right = float(hi);  // linspace's first and last edge
  for (size_t i = 0; i < n; ++i) {
    const float e = x[i];
    if (!(e >= left && e <= right)) continue;
    int64_t pos = int64_t((e - left) * float(bins) / (right - left));
    if (pos >= bins) pos = bins - 1;
    if (pos < 0) pos = 0;
    hist[size_t(pos)] += 1.0f;
  }
  return hist;
}

void HistogramObserver::observe(const float* data, size_t n) {
  if (n == 0) return;
  std::vector<float> finite;
  const float* x = data;
  bool has_inf = false;
  for (size_t i = 0; i < n; ++i) has_inf = has_inf || std::isinf(data[i]);
  if (has_inf) {
    for (size_t i = 0; i < n; ++i) {
      if (!std::isinf(data[i])) finite.push_back(data[i]);
    }
    if (finite.empty()) return;
    x = finite.data();
    n = finite.size();
  }
  float x_min = x[0], x_max = x[0];
  for (size_t i = 1; i < n; ++i) {
    x_min = std::min(x_min, x[i]);
    x_max = std::max(x_max, x[i]);
  }
  if (!initialized_) {  // reset_histogram
    min_val_ = x_min;
    max_val_ = x_max;
    histogram_ = histc(x, n, bins_, x_min, x_max);
    initialized_ = true;
    return;
  }
  const float new_min = std::min(min_val_, x_min), new_max = std::max(max_val_, x_max);
  std::vector<float> update = histc(x, n, bins_, new_min, new_max);
  if (new_min == min_val_ && new_max == max_val_) {
    for (size_t i = 0; i < update.size(); ++i) histogram_[i] += update[i];
    return;
  }
  // _combine_histograms
  std::vector<float> transformed;
  if (min_val_ == max_val_) {
    float bin_value = 0;
    for (float v : update) bin_value += v;
    const float one = min_val_;
    transformed = histc(&one, 1, bins_, new_min, new_max);
    for (float& v : transformed) v *= bin_value;
  } else {
    transformed = upscale(min_val_, max_val_, new_min, new_max);
  }
  histogram_.resize(update.size());
  for (size_t i = 0; i < update.size(); ++i) histogram_[i] = update[i] + transformed[i];
  min_val_ = new_min;
  max_val_ = new_max;
}

std::vector<float> HistogramObserver::upscale(float orig_min, float orig_max, float new_min,
                                              float new_max) const {
  const int64_t fine = bins_ * upsample_rate_;
  const float bin_size = (orig_max - orig_min) / float(fine);
  const std::vector<float> edges = linspace(orig_min, orig_max, fine + 1);
  const std::vector<float> bounds = linspace(new_min, new_max, bins_ + 1);
  const float half = 0.5f * bin_size;
  std::vector<float> out(size_t(bins_), 0.0f);
  for (int64_t i = 0; i < fine; ++i) {
    const float mid = edges[size_t(i)] + half;
    int64_t b = int64_t(std::upper_bound(bounds.begin(), bounds.end(), mid) - bounds.begin()) - 1;
    b = std::clamp<int64_t>(b, 0, bins_ - 1);
    out[size_t(b)] += histogram_[size_t(i / upsample_rate_)] / float(upsample_rate_);
  }
  return out;
}

double HistogramObserver::quantization_error(int64_t start_bin, int64_t end_bin) const {
  const double bin_width = (double(max_val_) - double(min_val_)) / double(bins_);
  const double dst_bin_width = bin_width * double(end_bin - start_bin + 1) / double(dst_nbins_);
  if (dst_bin_width == 0.0) return 0.0;
  const float bw = float(bin_width), dbw = float(dst_bin_width);
  const float half_dbw = float(dst_bin_width / 2);
  const float neg_half_dbw = float(-dst_bin_width / 2);
  // _get_norm(tensor(-dbw/2), tensor(dbw/2), density) without the density factor
  const float mid_norm = (half_dbw * half_dbw * half_dbw - neg_half_dbw * neg_half_dbw * neg_half_dbw) / 3.0f;
  const float top = float(dst_nbins_ - 1);
  double sum = 0;
  for (int64_t i = 0; i < bins_; ++i) {
    const float begin = float(i - start_bin) * bw;
    const float end = begin + bw;
    const float dob = std::clamp(floor_div(begin, dbw), 0.0f, top);
    const float dob_center = (dob + 0.5f) * dbw;
    const float doe = std::clamp(floor_div(end, dbw), 0.0f, top);
    const float density = histogram_[size_t(i)] / bw;
    float norm = 0.0f;
    const float db1 = begin - dob_center, de1 = half_dbw;
    norm += density * ((de1 * de1 * de1 - db1 * db1 * db1) / 3.0f);
    norm += (doe - dob - 1.0f) * (density * mid_norm);
    const float doe_center = doe * dbw + half_dbw;
    const float db3 = neg_half_dbw, de3 = end - doe_center;
    norm += density * ((de3 * de3 * de3 - db3 * db3 * db3) / 3.0f);
    sum += double(norm);
  }
  return double(float(sum));
}

void HistogramObserver::search_range(float* new_min, float* new_max) const {
  const float bin_width = (max_val_ - min_val_) / float(bins_);
  // torch.cumsum on CPU accumulates float32 in double and rounds each prefix to float32.
  std::vector<float> csum(histogram_.size());
  double run = 0;
  double total_d = 0;
  for (size_t i = 0; i < histogram_.size(); ++i) {
    run += double(histogram_[i]);
    csum[i] = float(run);
    total_d += double(histogram_[i]);
  }
  const double total = double(float(total_d));
  const double stepsize = 1e-5;
  double alpha = 0.0, beta = 1.0;
  int64_t start_bin = 0, end_bin = bins_ - 1;
  double norm_min = std::numeric_limits<double>::infinity();
  while (alpha < beta) {
    const double next_alpha = alpha + stepsize, next_beta = beta - stepsize;
    int64_t l = start_bin, r = end_bin;
    while (l < end_bin && csum[size_t(l)] < float(next_alpha * total)) ++l;
    while (r > start_bin && csum[size_t(r)] > float(next_beta * total)) --r;
    int64_t next_start = start_bin, next_end = end_bin;
    if ((l - start_bin) > (end_bin - r)) {
      next_start = l;
      alpha = next_alpha;
    } else {
      next_end = r;
      beta = next_beta;
    }
    if (next_start == start_bin && next_end == end_bin) continue;
    const double norm = quantization_error(next_start, next_end);
    if (norm > norm_min) break;
    norm_min = norm;
    start_bin = next_start;
    end_bin = next_end;
  }
  *new_min = min_val_ + bin_width * float(start_bin);
  *new_max = min_val_ + bin_width * float(end_bin + 1);
}

AffineQParams HistogramObserver::qparams(int64_t quant_min, int64_t quant_max, float eps) const {
  if (!initialized_) return AffineQParams{};
  float mn = 0, mx = 0;
  search_range(&mn, &mx);
  return affine_qparams(mn, mx, quant_min, quant_max, eps);
}

}  // namespace ember::aot
