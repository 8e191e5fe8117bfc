"""Models of the peer benchmark that refgen/fixtures/pt2_models.py does not have (issue #20's
suite): a narrow ResNet and a tiny U-Net. Same entry format and helpers as pt2_models.MODELS
(fixed-seed random weights, case-0 input); export_onnx.py writes their core-ATen .pt2 and
reference files (torch 2.14) into the large fixtures directory, then their ONNX files.
"""
import os
import sys

import torch
from torch import nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "refgen",
                                "fixtures"))
import pt2_models  # noqa: E402


class BasicBlock(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.down = None
        if stride != 1 or cin != cout:
            self.down = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        y = torch.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return torch.relu(y + (x if self.down is None else self.down(x)))


class NarrowResNet(nn.Module):
    """ResNet-style: 3x3 stem (16), BasicBlocks 16, 32/2, 64/2, 128/2, avg pool, Linear(128, 10)."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, 1, 1, bias=False), nn.BatchNorm2d(16), nn.ReLU())
        self.blocks = nn.Sequential(BasicBlock(16, 16, 1), BasicBlock(16, 32, 2),
                                    BasicBlock(32, 64, 2), BasicBlock(64, 128, 2))
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(128, 10)

    def forward(self, x):
        return self.fc(torch.flatten(self.pool(self.blocks(self.stem(x))), 1))


def _double_conv(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(),
                         nn.Conv2d(cout, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU())


class TinyUNet(nn.Module):
    """U-Net with 3 levels (8, 16, 32 channels), max-pool down, bilinear x2 upsampling, skip
    concatenation, 1x1 head to 2 classes."""

    def __init__(self):
        super().__init__()
        self.enc1, self.enc2, self.mid = _double_conv(3, 8), _double_conv(8, 16), _double_conv(16, 32)
        self.pool = nn.MaxPool2d(2)
        self.up = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False)
        self.dec2, self.dec1 = _double_conv(32 + 16, 16), _double_conv(16 + 8, 8)
        self.head = nn.Conv2d(8, 2, 1)

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(self.pool(e1))
        m = self.mid(self.pool(e2))
        d2 = self.dec2(torch.cat([self.up(m), e2], dim=1))
        d1 = self.dec1(torch.cat([self.up(d2), e1], dim=1))
        return self.head(d1)


MODELS = [
    dict(name="narrow_resnet", source="benchmarks/peers/peer_models.py",
         description="ResNet-style, BasicBlocks 16-32-64-128 channels, input [1,3,64,64]",
         build=lambda: pt2_models._init(NarrowResNet(), 30),
         cases=[pt2_models._inputs([1, 3, 64, 64], seed=3000)], dynamic_shapes=None,
         dialects=["core_aten"], tolerance=(1e-4, 1e-3), large=True),
    dict(name="tiny_unet", source="benchmarks/peers/peer_models.py",
         description="U-Net, 3 levels 8-16-32 channels, max pool, bilinear upsample, skip cat, "
                     "input [1,3,64,64]",
         build=lambda: pt2_models._init(TinyUNet(), 31),
         cases=[pt2_models._inputs([1, 3, 64, 64], seed=3100)], dynamic_shapes=None,
         dialects=["core_aten"], tolerance=(1e-4, 1e-3), large=True),
]

# BatchNorm statistics from training-mode batches, as for every model of pt2_models.MODELS
# (issue #28: random statistics made the output nearly independent of the input).
for _spec in MODELS:
    pt2_models._with_bn_stats(_spec)
