package dev.ember;

import java.nio.ByteBuffer;

/** The JNI entry points (bindings/java/jni/ember_jni.cc), over the C API ember.h. Internal. */
final class Native {
  private static boolean loaded;

  private Native() {}

  /** Loads libember_jni.so once: from -Dember.jni.path if set, else System.loadLibrary. */
  static synchronized void load() {
    if (loaded) return;
    String path = System.getProperty("ember.jni.path");
    if (path != null && !path.isEmpty()) {
      System.load(path);
    } else {
      System.loadLibrary("ember_jni");
    }
    loaded = true;
  }

  static native int version();

  static native long loadProgram(String path, String dataPath);

  static native void destroyProgram(long program);

  static native String[] methodNames(long program);

  static native long createMethod(long program, String name, int threads, String backends, boolean profiling,
      long maxPlannedMemoryBytes);

  static native void destroyMethod(long method);

  static native int inputCount(long method);

  static native int outputCount(long method);

  static native long[] info(long method, boolean input, int index);

  static native void setTensorInput(long method, int index, int dtype, ByteBuffer data, long[] shape);

  static native void setScalarInput(long method, int index, int kind, long i, double d);

  static native void execute(long method);

  static native long[] outputMeta(long method, int index);

  static native void copyOutput(long method, int index, ByteBuffer buffer);

  static native void setProfiling(long method, boolean on);

  static native String[] profileNames(long method);

  static native long[] profileTimes(long method);
}
