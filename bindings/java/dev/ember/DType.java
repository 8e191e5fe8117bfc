package dev.ember;

/** Element types, with ExecuTorch's ScalarType codes. */
public enum DType {
  UINT8(0, 1),
  INT8(1, 1),
  INT16(2, 2),
  INT32(3, 4),
  INT64(4, 8),
  HALF(5, 2),
  FLOAT(6, 4),
  DOUBLE(7, 8),
  BOOL(11, 1),
  BFLOAT16(15, 2);

  final int code;
  final int size;

  DType(int code, int size) {
    this.code = code;
    this.size = size;
  }

  /** Bytes per element. */
  public int elementSize() {
    return size;
  }

  static DType fromCode(int code) {
    for (DType t : values()) {
      if (t.code == code) return t;
    }
    throw new EmberException(0x13, "InvalidType", "element type code " + code + " has no DType");
  }
}
