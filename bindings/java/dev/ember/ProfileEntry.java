package dev.ember;

/** One instruction of a method's last run: its name ("aten::addmm.out", "XnnpackBackend"), calls and time. */
public final class ProfileEntry {
  private final String name;
  private final long calls;
  private final long totalNanos;

  ProfileEntry(String name, long calls, long totalNanos) {
    this.name = name;
    this.calls = calls;
    this.totalNanos = totalNanos;
  }

  public String name() {
    return name;
  }

  public long calls() {
    return calls;
  }

  public long totalNanos() {
    return totalNanos;
  }

  @Override
  public String toString() {
    return name + ": " + calls + " call(s), " + totalNanos + " ns";
  }
}
