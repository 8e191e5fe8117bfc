package dev.ember;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A tensor: element type, shape and contiguous data in a direct, native-order {@link ByteBuffer}.
 * {@code fromBlob(array, shape)} copies a Java array into a new direct buffer; {@code
 * fromBlob(ByteBuffer, DType, shape)} wraps a caller's direct buffer without a copy (the caller
 * must not change it while a call that reads it runs). Output tensors own a copy of the method's
 * output, so they stay valid after later runs. Not thread-safe; immutable in shape and type.
 */
public final class Tensor implements AutoCloseable {
  private final DType dtype;
  private final long[] shape;
  private ByteBuffer data;

  private Tensor(DType dtype, long[] shape, ByteBuffer data) {
    this.dtype = dtype;
    this.shape = shape.clone();
    this.data = data;
  }

  /** Element count of {@code shape} (1 for a scalar); rejects negative sizes. */
  public static long numel(long[] shape) {
    long n = 1;
    for (long s : shape) {
      if (s < 0) throw new EmberException(0x12, "InvalidArgument", "negative size in shape " + Arrays.toString(shape));
      n = Math.multiplyExact(n, s);
    }
    return n;
  }

  private static ByteBuffer allocate(DType dtype, long[] shape, long count) {
    if (count != numel(shape)) {
      throw new EmberException(0x12, "InvalidArgument",
          count + " elements given for shape " + Arrays.toString(shape) + " (" + numel(shape) + " elements)");
    }
    return ByteBuffer.allocateDirect(Math.toIntExact(count * dtype.size)).order(ByteOrder.nativeOrder());
  }

  public static Tensor fromBlob(float[] data, long[] shape) {
    ByteBuffer b = allocate(DType.FLOAT, shape, data.length);
    b.asFloatBuffer().put(data);
    return new Tensor(DType.FLOAT, shape, b);
  }

  public static Tensor fromBlob(double[] data, long[] shape) {
    ByteBuffer b = allocate(DType.DOUBLE, shape, data.length);
    b.asDoubleBuffer().put(data);
    return new Tensor(DType.DOUBLE, shape, b);
  }

  public static Tensor fromBlob(long[] data, long[] shape) {
    ByteBuffer b = allocate(DType.INT64, shape, data.length);
    b.asLongBuffer().put(data);
    return new Tensor(DType.INT64, shape, b);
  }

  public static Tensor fromBlob(int[] data, long[] shape) {
    ByteBuffer b = allocate(DType.INT32, shape, data.length);
    b.asIntBuffer().put(data);
    return new Tensor(DType.INT32, shape, b);
  }

  /** int8 data. */
  public static Tensor fromBlob(byte[] data, long[] shape) {
    ByteBuffer b = allocate(DType.INT8, shape, data.length);
    b.put(data).rewind();
    return new Tensor(DType.INT8, shape, b);
  }

  public static Tensor fromBlob(boolean[] data, long[] shape) {
    ByteBuffer b = allocate(DType.BOOL, shape, data.length);
    for (boolean v : data) b.put((byte) (v ? 1 : 0));
    b.rewind();
    return new Tensor(DType.BOOL, shape, b);
  }

  /**
   * Wraps a direct buffer without copying. Its capacity must be the byte size of {@code shape}
   * in {@code dtype}; the runtime checks it when the tensor is used as an input.
   */
  public static Tensor fromBlob(ByteBuffer data, DType dtype, long[] shape) {
    if (data == null || !data.isDirect()) {
      throw new EmberException(0x12, "InvalidArgument", "Tensor.fromBlob needs a direct ByteBuffer");
    }
    numel(shape);
    return new Tensor(dtype, shape, data.order(ByteOrder.nativeOrder()));
  }

  static Tensor wrap(DType dtype, long[] shape, ByteBuffer data) {
    return new Tensor(dtype, shape, data);
  }

  public DType dtype() {
    return dtype;
  }

  public long[] shape() {
    return shape.clone();
  }

  public long numel() {
    return numel(shape);
  }

  /** The data (a direct, native-order buffer; position 0). */
  public ByteBuffer getRawDataBuffer() {
    return buffer().duplicate().order(ByteOrder.nativeOrder());
  }

  private ByteBuffer buffer() {
    if (data == null) throw new EmberException(0x02, "InvalidState", "the tensor is closed");
    return data;
  }

  private void expect(DType want) {
    if (dtype != want) {
      throw new EmberException(0x13, "InvalidType", "tensor is " + dtype + ", not " + want);
    }
  }

  public float[] getDataAsFloatArray() {
    expect(DType.FLOAT);
    float[] out = new float[Math.toIntExact(numel())];
    getRawDataBuffer().asFloatBuffer().get(out);
    return out;
  }

  public double[] getDataAsDoubleArray() {
    expect(DType.DOUBLE);
    double[] out = new double[Math.toIntExact(numel())];
    getRawDataBuffer().asDoubleBuffer().get(out);
    return out;
  }

  public long[] getDataAsLongArray() {
    expect(DType.INT64);
    long[] out = new long[Math.toIntExact(numel())];
    getRawDataBuffer().asLongBuffer().get(out);
    return out;
  }

  public int[] getDataAsIntArray() {
    expect(DType.INT32);
    int[] out = new int[Math.toIntExact(numel())];
    getRawDataBuffer().asIntBuffer().get(out);
    return out;
  }

  public byte[] getDataAsByteArray() {
    if (dtype != DType.INT8 && dtype != DType.UINT8) expect(DType.INT8);
    byte[] out = new byte[Math.toIntExact(numel())];
    getRawDataBuffer().get(out);
    return out;
  }

  public boolean[] getDataAsBooleanArray() {
    expect(DType.BOOL);
    ByteBuffer b = getRawDataBuffer();
    boolean[] out = new boolean[Math.toIntExact(numel())];
    for (int i = 0; i < out.length; ++i) out[i] = b.get(i) != 0;
    return out;
  }

  /** Drops the reference to the data (a wrapped caller buffer is not touched). */
  @Override
  public void close() {
    data = null;
  }

  @Override
  public String toString() {
    return "Tensor(" + dtype + ", " + Arrays.toString(shape) + ")";
  }
}
