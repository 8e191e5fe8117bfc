package dev.ember;

/**
 * One input or output value: a {@link Tensor}, or a non-tensor value (None, Int, Double, Bool,
 * String, or a list of ints, doubles or bools). Non-tensor inputs must equal what the program
 * baked in at export. Immutable; closing it closes the tensor it holds.
 */
public final class EValue implements AutoCloseable {
  /** The kinds, with ExecuTorch's EValue tag numbers. */
  public enum Kind {
    NONE(0), TENSOR(1), STRING(2), DOUBLE(3), INT(4), BOOL(5), LIST_BOOL(6), LIST_DOUBLE(7), LIST_INT(8),
    LIST_TENSOR(9), LIST_SCALAR(10), LIST_OPTIONAL_TENSOR(11);

    final int code;

    Kind(int code) {
      this.code = code;
    }

    static Kind fromCode(int code) {
      for (Kind k : values()) {
        if (k.code == code) return k;
      }
      throw new EmberException(0x13, "InvalidType", "value kind " + code + " is unknown");
    }
  }

  private final Kind kind;
  private final Object value;

  private EValue(Kind kind, Object value) {
    this.kind = kind;
    this.value = value;
  }

  public static EValue from(Tensor t) {
    if (t == null) throw new EmberException(0x12, "InvalidArgument", "tensor is null");
    return new EValue(Kind.TENSOR, t);
  }

  public static EValue from(long v) {
    return new EValue(Kind.INT, v);
  }

  public static EValue from(double v) {
    return new EValue(Kind.DOUBLE, v);
  }

  public static EValue from(boolean v) {
    return new EValue(Kind.BOOL, v);
  }

  public static EValue from(String v) {
    return new EValue(Kind.STRING, v);
  }

  public static EValue none() {
    return new EValue(Kind.NONE, null);
  }

  static EValue of(Kind kind, Object value) {
    return new EValue(kind, value);
  }

  public Kind kind() {
    return kind;
  }

  public boolean isTensor() {
    return kind == Kind.TENSOR;
  }

  public boolean isNone() {
    return kind == Kind.NONE;
  }

  private Object expect(Kind want) {
    if (kind != want) throw new EmberException(0x13, "InvalidType", "value is " + kind + ", not " + want);
    return value;
  }

  public Tensor toTensor() {
    return (Tensor) expect(Kind.TENSOR);
  }

  public long toInt() {
    return (Long) expect(Kind.INT);
  }

  public double toDouble() {
    return (Double) expect(Kind.DOUBLE);
  }

  public boolean toBool() {
    return (Boolean) expect(Kind.BOOL);
  }

  public String toStr() {
    return (String) expect(Kind.STRING);
  }

  public long[] toIntList() {
    return ((long[]) expect(Kind.LIST_INT)).clone();
  }

  public double[] toDoubleList() {
    return ((double[]) expect(Kind.LIST_DOUBLE)).clone();
  }

  public boolean[] toBoolList() {
    return ((boolean[]) expect(Kind.LIST_BOOL)).clone();
  }

  @Override
  public void close() {
    if (value instanceof Tensor) ((Tensor) value).close();
  }

  @Override
  public String toString() {
    return "EValue(" + kind + (value == null ? "" : ", " + value) + ")";
  }
}
