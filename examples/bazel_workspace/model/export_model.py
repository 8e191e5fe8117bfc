"""Exports the example's model with torch.export and writes PyTorch's reference output.

    refgen/torch_env/run.sh trixie examples/bazel_workspace/model/export_model.py

(from the Ember checkout; any Python with torch >= 2.6 works the same). Writes, next to this
script: tiny_convnet.pt2 (core ATen, after run_decompositions()), tiny_convnet.input0.bin (the
input, float32, C order) and tiny_convnet.output0.bin (PyTorch's output on it). The cc_test
compares Ember's output with the latter.
"""
import os

import torch


class TinyConvNet(torch.nn.Module):
    """Conv + BatchNorm + ReLU, pooling and a linear head: small, but it exercises XNNPACK
    delegation and portable kernels."""

    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.bn = torch.nn.BatchNorm2d(8)
        self.pool = torch.nn.AdaptiveAvgPool2d(1)
        self.fc = torch.nn.Linear(8, 5)

    def forward(self, x):
        y = torch.relu(self.bn(self.conv(x)))
        return torch.softmax(self.fc(torch.flatten(self.pool(y), 1)), dim=1)


def main():
    out_dir = os.path.dirname(os.path.abspath(__file__))
    torch.manual_seed(0)
    model = TinyConvNet().eval()
    with torch.no_grad():  # non-trivial BatchNorm statistics
        model.bn.running_mean.uniform_(-0.5, 0.5)
        model.bn.running_var.uniform_(0.5, 1.5)
    x = torch.randn(2, 3, 8, 8)
    ep = torch.export.export(model, (x,)).run_decompositions()
    torch.export.save(ep, os.path.join(out_dir, "tiny_convnet.pt2"))
    with torch.no_grad():
        y = model(x)
    x.contiguous().numpy().tofile(os.path.join(out_dir, "tiny_convnet.input0.bin"))
    y.contiguous().numpy().tofile(os.path.join(out_dir, "tiny_convnet.output0.bin"))
    print("torch", torch.__version__, "output", tuple(y.shape))


if __name__ == "__main__":
    main()
