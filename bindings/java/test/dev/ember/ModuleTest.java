package dev.ember;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.Assume;
import org.junit.Test;

/**
 * dev.ember against programs lowered in the build from committed fixtures, compared with
 * PyTorch's outputs (tests/fixtures/pt2), plus the error paths and a Module shared by threads.
 * Run from the runfiles root (paths are relative to the workspace).
 */
public class ModuleTest {
  private static final String FIX = "tests/fixtures/pt2/";
  private static final String PTE = "tests/embedding/";

  private static ByteBuffer bytes(String path) throws IOException {
    byte[] b = Files.readAllBytes(Paths.get(path));
    return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
  }

  private static float[] floats(String path) throws IOException {
    ByteBuffer b = bytes(path);
    float[] out = new float[b.remaining() / 4];
    b.asFloatBuffer().get(out);
    return out;
  }

  // The manifest's tolerance: |got - ref| <= 1e-5 + 1e-4 |ref|.
  private static void assertClose(float[] ref, float[] got) {
    assertEquals(ref.length, got.length);
    for (int i = 0; i < ref.length; ++i) {
      assertTrue("element " + i + ": " + got[i] + " vs " + ref[i],
          Math.abs(got[i] - ref[i]) <= 1e-5f + 1e-4f * Math.abs(ref[i]));
    }
  }

  private static void expectError(String name, Runnable r) {
    try {
      r.run();
      fail("expected " + name);
    } catch (EmberException e) {
      assertEquals(e.getMessage(), name, e.statusName());
      assertTrue(e.getMessage(), e.getMessage().startsWith(name + " (0x"));
    }
  }

  private static void checkMlp(String pte, Module.Options options) throws IOException {
    try (Module module = Module.load(PTE + pte, options)) {
      float[] input = floats(FIX + "mlp.core_aten.torch2_6.input0.bin");
      EValue[] out = module.forward(EValue.from(Tensor.fromBlob(input, new long[] {4, 16})));
      assertEquals(1, out.length);
      Tensor t = out[0].toTensor();
      assertEquals(DType.FLOAT, t.dtype());
      assertArrayEquals(new long[] {4, 10}, t.shape());
      assertClose(floats(FIX + "mlp.core_aten.torch2_6.output0.bin"), t.getDataAsFloatArray());
    }
  }

  @Test
  public void forwardMatchesPyTorchPortable() throws IOException {
    checkMlp("mlp.pte", null);
  }

  @Test
  public void forwardMatchesPyTorchXnnpackTwoThreads() throws IOException {
    checkMlp("mlp_xnnpack.pte", new Module.Options().numThreads(2));
  }

  @Test
  public void methodNamesAndMetadata() {
    assertEquals(0x010000, Module.version());
    try (Module module = Module.load(PTE + "mlp_dynamic_batch.pte")) {
      assertArrayEquals(new String[] {"forward"}, module.getMethodNames());
      assertEquals(1, module.getInputCount("forward"));
      TensorInfo in = module.getInputInfo("forward", 0);
      assertEquals(EValue.Kind.TENSOR, in.kind());
      assertEquals(DType.FLOAT, in.dtype());
      assertTrue(in.isDynamic());
      assertArrayEquals(new long[] {64, 16}, in.maxShape());
      assertEquals(1, in.minShape()[0]);
      assertArrayEquals(new long[] {64, 10}, module.getOutputInfo("forward", 0).maxShape());
      expectError("InvalidArgument", () -> module.getInputInfo("forward", 1));
      expectError("NotFound", () -> module.getInputInfo("backward", 0));
    }
  }

  @Test
  public void dynamicBatchFromDirectBuffersWithoutCopy() throws IOException {
    String[] cases = {"", ".case1", ".case2", ".case3"};
    long[] batches = {4, 1, 17, 64};
    try (Module module = Module.load(PTE + "mlp_dynamic_batch.pte")) {
      for (int c = 0; c < cases.length; ++c) {
        String base = FIX + "mlp_dynamic_batch.core_aten.torch2_6" + cases[c];
        byte[] raw = Files.readAllBytes(Paths.get(base + ".input0.bin"));
        ByteBuffer direct = ByteBuffer.allocateDirect(raw.length).order(ByteOrder.nativeOrder());
        direct.put(raw).rewind();
        Tensor input = Tensor.fromBlob(direct, DType.FLOAT, new long[] {batches[c], 16});
        Tensor out = module.forward(EValue.from(input))[0].toTensor();
        assertArrayEquals(new long[] {batches[c], 10}, out.shape());
        assertClose(floats(base + ".output0.bin"), out.getDataAsFloatArray());
      }
      Tensor tooBig = Tensor.fromBlob(new float[65 * 16], new long[] {65, 16});
      expectError("InvalidArgument", () -> module.forward(EValue.from(tooBig)));
    }
  }

  @Test
  public void boolAndSeveralOutputs() throws IOException {
    String base = FIX + "buffers_consts.core_aten.torch2_6";
    try (Module module = Module.load(PTE + "buffers_consts.pte")) {
      EValue[] out = module.forward(
          EValue.from(Tensor.fromBlob(floats(base + ".input0.bin"), new long[] {3, 4})),
          EValue.from(Tensor.fromBlob(floats(base + ".input1.bin"), new long[] {3, 1})));
      assertEquals(3, out.length);
      assertClose(floats(base + ".output0.bin"), out[0].toTensor().getDataAsFloatArray());
      byte[] ref = Files.readAllBytes(Paths.get(base + ".output1.bin"));
      boolean[] got = out[1].toTensor().getDataAsBooleanArray();
      for (int i = 0; i < ref.length; ++i) assertEquals(ref[i] != 0, got[i]);
      assertClose(floats(base + ".output2.bin"), out[2].toTensor().getDataAsFloatArray());
    }
  }

  @Test
  @SuppressWarnings("try")
  public void errorsAreExceptionsWithTheStatusName() {
    expectError("NotFound", () -> Module.load(PTE + "absent.pte"));
    expectError("InvalidProgram", () -> Module.load(FIX + "mlp.core_aten.torch2_6.pt2"));
    Module module = Module.load(PTE + "mlp.pte");
    {
      Tensor wrongSize = Tensor.fromBlob(ByteBuffer.allocateDirect(255), DType.FLOAT, new long[] {4, 16});
      try {
        module.forward(EValue.from(wrongSize));
        fail();
      } catch (EmberException e) {
        assertEquals("InvalidArgument", e.statusName());
        assertEquals(0x12, e.status());
        assertTrue(e.getMessage(), e.getMessage().contains("expects float32[4,16] (256 bytes), got 255 bytes"));
      }
      expectError("InvalidType",
          () -> module.forward(EValue.from(Tensor.fromBlob(new long[64], new long[] {4, 16}))));
      expectError("InvalidArgument", () -> module.forward());
      expectError("InvalidArgument", () -> module.forward(EValue.from(1L)));  // a Tensor slot
      expectError("InvalidArgument", () -> Tensor.fromBlob(new float[3], new long[] {2, 2}));
      expectError("InvalidType", () -> Tensor.fromBlob(new float[4], new long[] {4}).getDataAsLongArray());
      module.close();
      module.close();  // idempotent
      expectError("InvalidState", () -> module.getMethodNames());
    }
    Module.Options off = new Module.Options().backends("");
    try (Module xnnpackOff = Module.load(PTE + "mlp_xnnpack.pte", off)) {
      expectError("NotFound", () -> xnnpackOff.forward(EValue.from(Tensor.fromBlob(new float[64], new long[] {4, 16}))));
    }
  }

  // Issue #33: the planned-memory budget reaches ember_method_options; a plan over it is
  // MemoryAllocationFailed at the first run (method creation), a raised budget runs.
  @Test
  public void plannedMemoryBudget() {
    try (Module tight = Module.load(PTE + "mlp.pte", new Module.Options().maxPlannedMemoryBytes(1))) {
      try {
        tight.forward(EValue.from(Tensor.fromBlob(new float[64], new long[] {4, 16})));
        fail("expected MemoryAllocationFailed");
      } catch (EmberException e) {
        assertEquals(e.getMessage(), "MemoryAllocationFailed", e.statusName());
        assertTrue(e.getMessage(), e.getMessage().contains("max_planned_memory_bytes 1:"));
      }
    }
    try (Module raised = Module.load(PTE + "mlp.pte", new Module.Options().maxPlannedMemoryBytes(1L << 40))) {
      assertTrue(raised.forward(EValue.from(Tensor.fromBlob(new float[64], new long[] {4, 16}))).length > 0);
    }
    expectError("InvalidArgument", () -> new Module.Options().maxPlannedMemoryBytes(-1));
  }

  @Test
  public void profileOfTheLastRun() {
    try (Module module = Module.load(PTE + "mlp.pte", new Module.Options().profiling(true))) {
      module.forward(EValue.from(Tensor.fromBlob(new float[64], new long[] {4, 16})));
      ProfileEntry[] profile = module.getProfile("forward");
      assertTrue(profile.length > 0);
      boolean sawAddmm = false;
      for (ProfileEntry e : profile) {
        assertEquals(e.toString(), 1, e.calls());
        assertTrue(e.totalNanos() >= 0);
        sawAddmm |= e.name().equals("aten::addmm.out");
      }
      assertTrue(sawAddmm);
    }
  }

  @Test
  public void oneModuleFromSeveralThreads() throws Exception {
    float[] input = floats(FIX + "mlp.core_aten.torch2_6.input0.bin");
    float[] ref = floats(FIX + "mlp.core_aten.torch2_6.output0.bin");
    AtomicInteger good = new AtomicInteger();
    List<Throwable> errors = new ArrayList<>();
    try (Module module = Module.load(PTE + "mlp_xnnpack.pte")) {
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < 4; ++t) {
        threads.add(new Thread(() -> {
          try {
            for (int run = 0; run < 25; ++run) {
              Tensor out = module.forward(EValue.from(Tensor.fromBlob(input, new long[] {4, 16})))[0].toTensor();
              assertClose(ref, out.getDataAsFloatArray());
            }
            good.incrementAndGet();
          } catch (Throwable e) {
            synchronized (errors) {
              errors.add(e);
            }
          }
        }));
      }
      for (Thread t : threads) t.start();
      for (Thread t : threads) t.join();
    }
    assertTrue(errors.toString(), errors.isEmpty());
    assertEquals(4, good.get());
  }

  // ExecuTorch's Android training test program (../shared/fixtures, via EMBER_SHARED_DIR;
  // skipped without it): weights from a .ptd, metadata methods returning Strings and an Int.
  @Test
  public void upstreamProgramWithPtdAndNonTensorOutputs() {
    String shared = System.getenv("EMBER_SHARED_DIR");
    String dir = (shared == null ? "" : shared) + "/fixtures/executorch-pte/";
    Assume.assumeTrue("EMBER_SHARED_DIR not set",
        shared != null && Files.exists(Paths.get(dir + "pytorch__executorch__xor.pte")));
    Module.Options options = new Module.Options().dataPath(dir + "pytorch__executorch__xor.ptd");
    try (Module module = Module.load(dir + "pytorch__executorch__xor.pte", options)) {
      assertEquals(4, module.getMethodNames().length);
      EValue[] names = module.execute("__et_training_fqn_forward");
      assertEquals(4, names.length);
      assertEquals("net.linear.weight", names[0].toStr());
      assertEquals("net.linear2.bias", names[3].toStr());
      EValue[] index = module.execute("__et_training_gradients_index_forward");
      assertEquals(EValue.Kind.INT, index[0].kind());
      assertEquals(2L, index[0].toInt());
    }
  }

  @Test
  public void evalueKinds() {
    assertEquals(3L, EValue.from(3L).toInt());
    assertTrue(EValue.from(true).toBool());
    assertFalse(EValue.none().isTensor());
    expectError("InvalidType", () -> EValue.from(2.5).toInt());
  }
}
