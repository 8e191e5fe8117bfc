package dev.ember;

/**
 * A failed Ember call: the runtime's error code ({@link #status()}, ExecuTorch's numeric values),
 * its name ({@link #statusName()}, e.g. "InvalidArgument") and the runtime's message, which
 * names what is wrong ("input 0 expects float32[4,16] (256 bytes), got 255 bytes").
 */
public final class EmberException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final int status;
  private final String statusName;

  public EmberException(int status, String statusName, String message) {
    super(statusName + " (0x" + Integer.toHexString(status) + "): " + message);
    this.status = status;
    this.statusName = statusName;
  }

  /** The numeric error code (0x12 for InvalidArgument). */
  public int status() {
    return status;
  }

  /** The error's name, e.g. "InvalidArgument", "NotFound", "InvalidProgram". */
  public String statusName() {
    return statusName;
  }
}
