package dev.ember;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * A loaded Ember program (.pte) and its methods, over the C API (ember.h) through plain JNI.
 *
 * <pre>
 *   try (Module module = Module.load("/data/local/tmp/model.pte")) {
 *     Tensor input = Tensor.fromBlob(new float[4 * 16], new long[] {4, 16});
 *     EValue[] outputs = module.forward(EValue.from(input));
 *     float[] scores = outputs[0].toTensor().getDataAsFloatArray();
 *   }
 * </pre>
 *
 * <p>A method is created (its memory allocated, delegates initialised) on first use and kept
 * until {@link #close()}. Outputs are copies: they stay valid after later runs and after close.
 *
 * <p>Thread-safety: a Module may be shared by threads. Its calls are serialised (each method's
 * memory is used by one run at a time); for parallel runs use one Module per thread (the
 * program file is memory-mapped, so the OS shares its pages). Failures throw {@link
 * EmberException} with the runtime's error name and message.
 */
public final class Module implements AutoCloseable {
  /** How methods are created. */
  public static final class Options {
    int numThreads = 1;
    String backends = null;
    boolean profiling = false;
    String dataPath = null;
    long maxPlannedMemoryBytes = 0;

    /** Threads for kernels and XNNPACK (1: the calling thread; capped at the CPU count). */
    public Options numThreads(int n) {
      numThreads = n;
      return this;
    }

    /** Backends methods may use, comma-separated ("XnnpackBackend"); "" for none; null for all. */
    public Options backends(String names) {
      backends = names;
      return this;
    }

    /** Time every instruction of each run (see {@link Module#getProfile}). */
    public Options profiling(boolean on) {
      profiling = on;
      return this;
    }

    /**
     * The most planned memory (the sum of the memory plan's buffers, which the .pte names) a
     * method may reserve, in bytes; 0 (the default) means 8 GiB. A plan over it fails with
     * MemoryAllocationFailed before anything is reserved; raise it for a trusted program.
     */
    public Options maxPlannedMemoryBytes(long bytes) {
      if (bytes < 0) {
        throw new EmberException(0x12, "InvalidArgument", "maxPlannedMemoryBytes must be >= 0, got " + bytes);
      }
      maxPlannedMemoryBytes = bytes;
      return this;
    }

    /** An external data file (.ptd) for tensors the program keeps outside. */
    public Options dataPath(String path) {
      dataPath = path;
      return this;
    }
  }

  private long program;
  private final Options options;
  private final Map<String, Long> methods = new HashMap<>();

  private Module(long program, Options options) {
    this.program = program;
    this.options = options;
  }

  /** Loads and verifies the program at {@code path} (memory-mapped). */
  public static Module load(String path) {
    return load(path, new Options());
  }

  public static Module load(String path, Options options) {
    Native.load();
    Options o = options == null ? new Options() : options;
    return new Module(Native.loadProgram(path, o.dataPath), o);
  }

  /** The library's version, (major << 16) | (minor << 8) | patch. */
  public static int version() {
    Native.load();
    return Native.version();
  }

  /** The methods users can run, in file order. */
  public synchronized String[] getMethodNames() {
    return Native.methodNames(handle());
  }

  public EValue[] forward(EValue... inputs) {
    return execute("forward", inputs);
  }

  /** Sets every input, runs method {@code name} and returns its outputs (copies). */
  public synchronized EValue[] execute(String name, EValue... inputs) {
    long m = method(name);
    int count = Native.inputCount(m);
    if (inputs == null || inputs.length != count) {
      throw new EmberException(0x12, "InvalidArgument", "method '" + name + "' takes " + count + " inputs, "
          + (inputs == null ? 0 : inputs.length) + " given");
    }
    for (int i = 0; i < count; ++i) setInput(m, i, inputs[i]);
    Native.execute(m);
    EValue[] outputs = new EValue[Native.outputCount(m)];
    for (int i = 0; i < outputs.length; ++i) outputs[i] = output(m, i);
    return outputs;
  }

  /** Input {@code index} of method {@code name}: kind, dtype, shape and dynamic bounds. */
  public synchronized TensorInfo getInputInfo(String name, int index) {
    return new TensorInfo(Native.info(method(name), true, index));
  }

  public synchronized TensorInfo getOutputInfo(String name, int index) {
    return new TensorInfo(Native.info(method(name), false, index));
  }

  public synchronized int getInputCount(String name) {
    return Native.inputCount(method(name));
  }

  public synchronized int getOutputCount(String name) {
    return Native.outputCount(method(name));
  }

  /** Turns per-instruction timing of method {@code name} on or off. */
  public synchronized void setProfiling(String name, boolean on) {
    Native.setProfiling(method(name), on);
  }

  /** Per-instruction timings of the last run of {@code name} (zeros when profiling is off). */
  public synchronized ProfileEntry[] getProfile(String name) {
    long m = method(name);
    String[] names = Native.profileNames(m);
    long[] times = Native.profileTimes(m);
    ProfileEntry[] out = new ProfileEntry[names.length];
    for (int i = 0; i < names.length; ++i) out[i] = new ProfileEntry(names[i], times[2 * i], times[2 * i + 1]);
    return out;
  }

  /** Frees every method and the program. Later calls throw InvalidState. Idempotent. */
  @Override
  public synchronized void close() {
    for (long m : methods.values()) Native.destroyMethod(m);
    methods.clear();
    if (program != 0) Native.destroyProgram(program);
    program = 0;
  }

  private long handle() {
    if (program == 0) throw new EmberException(0x02, "InvalidState", "the Module is closed");
    return program;
  }

  private long method(String name) {
    long p = handle();
    if (name == null) throw new EmberException(0x12, "InvalidArgument", "method name is null");
    Long m = methods.get(name);
    if (m == null) {
      m = Native.createMethod(p, name, options.numThreads, options.backends, options.profiling,
          options.maxPlannedMemoryBytes);
      methods.put(name, m);
    }
    return m;
  }

  private static void setInput(long m, int i, EValue v) {
    if (v == null) throw new EmberException(0x12, "InvalidArgument", "input " + i + " is null");
    switch (v.kind()) {
      case TENSOR: {
        Tensor t = v.toTensor();
        Native.setTensorInput(m, i, t.dtype().code, t.getRawDataBuffer(), t.shape());
        break;
      }
      case INT: Native.setScalarInput(m, i, v.kind().code, v.toInt(), 0); break;
      case DOUBLE: Native.setScalarInput(m, i, v.kind().code, 0, v.toDouble()); break;
      case BOOL: Native.setScalarInput(m, i, v.kind().code, v.toBool() ? 1 : 0, 0); break;
      case NONE: Native.setScalarInput(m, i, v.kind().code, 0, 0); break;
      default:
        throw new EmberException(0x10, "NotSupported", "input " + i + ": " + v.kind() + " inputs are not supported");
    }
  }

  // meta: [kind, dtype, nbytes, i, bits of d, b, count, rank, sizes...]
  private static EValue output(long m, int i) {
    long[] meta = Native.outputMeta(m, i);
    EValue.Kind kind = EValue.Kind.fromCode((int) meta[0]);
    int nbytes = Math.toIntExact(meta[2]);
    int count = Math.toIntExact(meta[6]);
    ByteBuffer bytes = null;
    if (kind == EValue.Kind.TENSOR || kind == EValue.Kind.STRING || kind == EValue.Kind.LIST_INT
        || kind == EValue.Kind.LIST_DOUBLE || kind == EValue.Kind.LIST_BOOL) {
      bytes = ByteBuffer.allocateDirect(nbytes).order(ByteOrder.nativeOrder());
      Native.copyOutput(m, i, bytes);
    }
    switch (kind) {
      case TENSOR: {
        long[] shape = Arrays.copyOfRange(meta, 8, 8 + (int) meta[7]);
        return EValue.of(kind, Tensor.wrap(DType.fromCode((int) meta[1]), shape, bytes));
      }
      case INT: return EValue.from(meta[3]);
      case DOUBLE: return EValue.from(Double.longBitsToDouble(meta[4]));
      case BOOL: return EValue.from(meta[5] != 0);
      case NONE: return EValue.none();
      case STRING: {
        byte[] b = new byte[nbytes];
        bytes.get(b);
        return EValue.from(new String(b, java.nio.charset.StandardCharsets.UTF_8));
      }
      case LIST_INT: {
        long[] l = new long[count];
        bytes.asLongBuffer().get(l);
        return EValue.of(kind, l);
      }
      case LIST_DOUBLE: {
        double[] l = new double[count];
        bytes.asDoubleBuffer().get(l);
        return EValue.of(kind, l);
      }
      case LIST_BOOL: {
        boolean[] l = new boolean[count];
        for (int k = 0; k < count; ++k) l[k] = bytes.get(k) != 0;
        return EValue.of(kind, l);
      }
      default:
        throw new EmberException(0x10, "NotSupported", "output " + i + " is a " + kind);
    }
  }
}
