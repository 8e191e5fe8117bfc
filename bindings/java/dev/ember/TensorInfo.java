package dev.ember;

import java.util.Arrays;

/**
 * What a method's input or output is: its kind and, for a tensor, dtype, current shape and the
 * allowed range of every dim ([min, max]; equal to the shape for a static tensor; a dynamic
 * tensor's max is the program's upper bound and its min the export's lower bound, 0 when
 * unknown).
 */
public final class TensorInfo {
  private final EValue.Kind kind;
  private final DType dtype;
  private final boolean dynamic;
  private final boolean memoryPlanned;
  private final long[] shape;
  private final long[] minShape;
  private final long[] maxShape;

  TensorInfo(long[] v) {
    kind = EValue.Kind.fromCode((int) v[0]);
    int rank = (int) v[4];
    dtype = kind == EValue.Kind.TENSOR ? DType.fromCode((int) v[1]) : null;
    dynamic = v[2] != 0;
    memoryPlanned = v[3] != 0;
    shape = Arrays.copyOfRange(v, 5, 5 + rank);
    minShape = Arrays.copyOfRange(v, 5 + rank, 5 + 2 * rank);
    maxShape = Arrays.copyOfRange(v, 5 + 2 * rank, 5 + 3 * rank);
  }

  public EValue.Kind kind() {
    return kind;
  }

  /** The element type (null for a non-tensor). */
  public DType dtype() {
    return dtype;
  }

  public boolean isDynamic() {
    return dynamic;
  }

  public boolean isMemoryPlanned() {
    return memoryPlanned;
  }

  public long[] shape() {
    return shape.clone();
  }

  public long[] minShape() {
    return minShape.clone();
  }

  public long[] maxShape() {
    return maxShape.clone();
  }

  @Override
  public String toString() {
    return kind == EValue.Kind.TENSOR ? "TensorInfo(" + dtype + ", " + Arrays.toString(shape) + ")"
                                      : "TensorInfo(" + kind + ")";
  }
}
