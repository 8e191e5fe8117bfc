package dev.ember;

/** The JNI entry points of dev.ember.LlmModule (bindings/java/jni/ember_llm_jni.cc). Internal. */
final class LlmNative {
  private static boolean loaded;

  private LlmNative() {}

  /** Loads libember_llm_jni.so once: from -Dember.llm.jni.path if set, else System.loadLibrary. */
  static synchronized void load() {
    if (loaded) return;
    String path = System.getProperty("ember.llm.jni.path");
    if (path != null && !path.isEmpty()) {
      System.load(path);
    } else {
      System.loadLibrary("ember_llm_jni");
    }
    loaded = true;
  }

  /** Receives each piece of settled text as UTF-8; false stops the generation. */
  interface Sink {
    boolean onBytes(byte[] utf8);
  }

  static native long load(String modelPath, String tokenizerPath);

  static native void destroy(long llm);

  /** config: {max_new_tokens, top_k, seed} and {temperature, top_p, min_p, repetition_penalty}. */
  static native int[] generate(long llm, boolean continued, String text, int[] ids, long[] ints,
      float[] floats, Sink sink);

  static native void reset(long llm);

  static native void rewind(long llm, int position);

  static native int[] sessionTokens(long llm);

  static native long newSession(long llm, boolean fork);

  static native void saveSession(long llm, String path);

  static native void loadSession(long llm, String path);

  /** {prompt, evaluated, reused, generated, decode steps, position, context, prefill ms,
   *  decode ms, first token ms}. */
  static native double[] stats(long llm);

  /** {file, planned, kv cache, temp, total bytes, context, max seq len, vocab}. */
  static native long[] estimateMemory(String modelPath);
}
