package dev.ember;

import java.nio.charset.StandardCharsets;

/**
 * A decoder LLM (.pte lowered by Ember) with its tokenizer: text generation streamed to a
 * callback, over the LLM C API (ember_llm.h) through plain JNI (libember_llm_jni.so).
 *
 * <pre>
 *   try (LlmModule llm = LlmModule.load("/data/local/tmp/model.pte", "/data/local/tmp/tokenizer.json")) {
 *     llm.generate("Once upon a time", new LlmModule.Config().maxNewTokens(64),
 *         text -> { System.out.print(text); return true; });
 *   }
 * </pre>
 *
 * <p>One LlmModule is one conversation (one KV cache): {@link #generate} takes the whole
 * conversation as its prompt and runs only the part the cache does not hold yet (prefix reuse),
 * {@link #continueGeneration} appends to it and continues the random stream, {@link #rewind}
 * goes back, {@link #saveSession} / {@link #loadSession} keep a conversation across processes,
 * {@link #newSession} / {@link #fork} give further conversations on the same loaded weights.
 *
 * <p>Thread-safety: calls on one LlmModule are serialised, except {@link #stop()}, which any
 * thread may call while a generation runs. Different LlmModules (also from {@link #newSession})
 * generate on different threads at once. Failures throw {@link EmberException}.
 */
public final class LlmModule implements AutoCloseable {
  /** Receives each piece of settled text (never half a character); false stops generating. */
  public interface TextCallback {
    boolean onText(String text);
  }

  /** Sampling and length; greedy with 64 new tokens by default. */
  public static final class Config {
    int maxNewTokens = 64;
    float temperature = 0f;
    int topK = 0;
    float topP = 1f;
    float minP = 0f;
    float repetitionPenalty = 1f;
    long seed = 0;

    public Config maxNewTokens(int n) {
      maxNewTokens = n;
      return this;
    }

    /** 0: greedy. */
    public Config temperature(float t) {
      temperature = t;
      return this;
    }

    public Config topK(int k) {
      topK = k;
      return this;
    }

    public Config topP(float p) {
      topP = p;
      return this;
    }

    public Config minP(float p) {
      minP = p;
      return this;
    }

    public Config repetitionPenalty(float p) {
      repetitionPenalty = p;
      return this;
    }

    /** Same seed, same tokens. */
    public Config seed(long s) {
      seed = s;
      return this;
    }
  }

  /** Figures of the last generation. */
  public static final class Stats {
    public final int promptTokens;
    public final int prefillEvaluated;
    public final int prefillReused;
    public final int generatedTokens;
    public final int decodeSteps;
    public final int position;
    public final int contextLength;
    public final double prefillMs;
    public final double decodeMs;
    public final double timeToFirstTokenMs;

    Stats(double[] v) {
      promptTokens = (int) v[0];
      prefillEvaluated = (int) v[1];
      prefillReused = (int) v[2];
      generatedTokens = (int) v[3];
      decodeSteps = (int) v[4];
      position = (int) v[5];
      contextLength = (int) v[6];
      prefillMs = v[7];
      decodeMs = v[8];
      timeToFirstTokenMs = v[9];
    }
  }

  /** What a model needs in memory, read before loading it (see ember_llm_estimate_memory). */
  public static final class Memory {
    public final long fileBytes;
    public final long plannedBytes;
    public final long kvCacheBytes;
    public final long tempBytes;
    public final long totalBytes;
    public final int contextLength;
    public final int maxSeqLen;
    public final int vocabSize;

    Memory(long[] v) {
      fileBytes = v[0];
      plannedBytes = v[1];
      kvCacheBytes = v[2];
      tempBytes = v[3];
      totalBytes = v[4];
      contextLength = (int) v[5];
      maxSeqLen = (int) v[6];
      vocabSize = (int) v[7];
    }
  }

  private long llm;
  // Set by stop() from any thread; read before each piece of text is delivered.
  private volatile boolean stopRequested;

  private LlmModule(long llm) {
    this.llm = llm;
  }

  /**
   * Loads the decoder at {@code modelPath} (memory-mapped) and the tokenizer at {@code
   * tokenizerPath} (tokenizer.json, SentencePiece .model or .tiktoken; null: text is token ids
   * in decimal).
   */
  public static LlmModule load(String modelPath, String tokenizerPath) {
    LlmNative.load();
    return new LlmModule(LlmNative.load(modelPath, tokenizerPath));
  }

  /** The memory {@code modelPath} needs, without loading it. */
  public static Memory estimateMemory(String modelPath) {
    LlmNative.load();
    return new Memory(LlmNative.estimateMemory(modelPath));
  }

  /** Generates from {@code prompt} (the whole conversation); returns the new token ids. */
  public synchronized int[] generate(String prompt, Config config, TextCallback callback) {
    return run(false, prompt, null, config, callback);
  }

  /** Generates from the token ids {@code promptIds} (the whole conversation). */
  public synchronized int[] generate(int[] promptIds, Config config, TextCallback callback) {
    return run(false, null, promptIds, config, callback);
  }

  /** Appends {@code text} (null: nothing) and generates on, continuing the random stream. */
  public synchronized int[] continueGeneration(String text, Config config, TextCallback callback) {
    return run(true, text, null, config, callback);
  }

  /** Appends the token ids {@code ids} and generates on, continuing the random stream. */
  public synchronized int[] continueGeneration(int[] ids, Config config, TextCallback callback) {
    return run(true, null, ids == null ? new int[0] : ids, config, callback);
  }

  private int[] run(boolean continued, String text, int[] ids, Config config, TextCallback callback) {
    Config c = config == null ? new Config() : config;
    long[] ints = {c.maxNewTokens, c.topK, c.seed};
    float[] floats = {c.temperature, c.topP, c.minP, c.repetitionPenalty};
    stopRequested = false;
    LlmNative.Sink sink = bytes -> !stopRequested
        && (callback == null || callback.onText(new String(bytes, StandardCharsets.UTF_8)));
    return LlmNative.generate(handle(), continued, text, ids, ints, floats, sink);
  }

  /** Stops a running generation after the piece of text being delivered; any thread. */
  public void stop() {
    stopRequested = true;
  }

  /** Forgets the conversation. */
  public synchronized void reset() {
    LlmNative.reset(handle());
  }

  /** Goes back to {@code position} tokens (undo a turn, regenerate). */
  public synchronized void rewind(int position) {
    LlmNative.rewind(handle(), position);
  }

  /** The conversation's token ids (prompt and generated). */
  public synchronized int[] sessionTokens() {
    return LlmNative.sessionTokens(handle());
  }

  /** A new, empty conversation on the same loaded weights; close it separately. */
  public synchronized LlmModule newSession() {
    return new LlmModule(LlmNative.newSession(handle(), false));
  }

  /** A new conversation starting as a copy of this one (cache, tokens, random stream). */
  public synchronized LlmModule fork() {
    return new LlmModule(LlmNative.newSession(handle(), true));
  }

  /** Writes the conversation to {@code path} atomically. */
  public synchronized void saveSession(String path) {
    LlmNative.saveSession(handle(), path);
  }

  /** Restores a conversation saved with the same model file. */
  public synchronized void loadSession(String path) {
    LlmNative.loadSession(handle(), path);
  }

  public synchronized Stats stats() {
    return new Stats(LlmNative.stats(handle()));
  }

  /** Frees the conversation (idempotent); the weights go with the last conversation. */
  @Override
  public synchronized void close() {
    if (llm != 0) {
      long h = llm;
      llm = 0;
      LlmNative.destroy(h);
    }
  }

  private long handle() {
    if (llm == 0) throw new EmberException(0x02, "InvalidState", "the LlmModule is closed");
    return llm;
  }
}
