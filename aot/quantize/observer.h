// Observers: what PyTorch's PT2E observers compute, step for step, so that Ember's
// post-training quantization picks the scales and zero points PyTorch would.
//
// XNNPACKQuantizer's get_symmetric_quantization_config(is_per_channel=True) (torch 2.6) uses
//   activations: HistogramObserver(eps=2**-12), int8 [-128, 127], per_tensor_affine
//   weights:     PerChannelMinMaxObserver(eps=2**-12, ch_axis=0), int8 [-127, 127],
//                per_channel_symmetric (zero points 0)
// The arithmetic follows torch/ao/quantization/observer.py: float32 tensors wherever PyTorch
// keeps tensors (histogram, min/max, bin edges, norms), double where it uses Python floats.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace ember::aot {

struct AffineQParams {
  float scale = 1.0f;
  int64_t zero_point = 0;
};

// PyTorch's _calculate_qparams for per-tensor affine: [min, max] widened to include 0,
// scale = max((max - min) / (qmax - qmin), eps), zp = clamp(qmin - round(min / scale)).
AffineQParams affine_qparams(float min_val, float max_val, int64_t quant_min, int64_t quant_max,
                             float eps);
// Per-channel symmetric (weights): scale[c] = max(max(|min_c|, |max_c|) / ((qmax-qmin)/2), eps)
// over the `channels` slices along axis 0 of a C-contiguous `data` of `numel` elements.
std::vector<float> symmetric_per_channel_scales(const float* data, int64_t numel,
                                                int64_t channels, int64_t quant_min,
                                                int64_t quant_max, float eps);

// torch.histc on float32 input with float32 bin edges from linspace(min, max, bins + 1).
std::vector<float> histc(const float* x, size_t n, int64_t bins, double min, double max);

class HistogramObserver {
 public:
  explicit HistogramObserver(int64_t bins = 2048) : bins_(bins), histogram_(size_t(bins), 0.0f) {}
  // One forward() call: the tensor's elements (infinities ignored, as PyTorch does).
  void observe(const float* x, size_t n);
  bool initialized() const { return initialized_; }
  float min_val() const { return min_val_; }
  float max_val() const { return max_val_; }
  const std::vector<float>& histogram() const { return histogram_; }
  // Sets the observed state (as HistogramObserver.load_state_dict does): [min, max] and the
  // histogram of bins() counts.
  void set_state(float min_val, float max_val, std::vector<float> histogram) {
    min_val_ = min_val;
    max_val_ = max_val;
    histogram_ = std::move(histogram);
    bins_ = int64_t(histogram_.size());
    initialized_ = true;
  }
  // _non_linear_param_search: the [min, max] that minimises the L2 quantization error of
  // the histogram into 2^8 bins.
  void search_range(float* new_min, float* new_max) const;
  // calculate_qparams(): search_range then affine_qparams. Uninitialized: scale 1, zp 0.
  AffineQParams qparams(int64_t quant_min, int64_t quant_max, float eps) const;

 private:
  double quantization_error(int64_t start_bin, int64_t end_bin) const;
  std::vector<float> upscale(float orig_min, float orig_max, float new_min, float new_max) const;

  int64_t bins_;
  int64_t dst_nbins_ = 256;
  int64_t upsample_rate_ = 16;
  std::vector<float> histogram_;
  float min_val_ = 0;
  float max_val_ = 0;
  bool initialized_ = false;
};

}  // namespace ember::aot
