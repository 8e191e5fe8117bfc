package dev.ember;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.Test;

/**
 * dev.ember.LlmModule on the transformers Llama of tests/fixtures/llm, lowered in the build
 * (tests/embedding/llm_llama.pte), without a tokenizer (text is token ids in decimal): PyTorch's
 * greedy tokens streamed to the callback, stop() from another thread, save/restore/continue
 * equal to an uninterrupted run, prefix reuse in the stats, two sessions on two threads at once,
 * the memory estimate and named errors. Run from the runfiles root.
 */
public class LlmModuleTest {
  private static final String PTE = "tests/embedding/llm_llama.pte";
  // PyTorch's greedy tokens after the fixture's prompt (tests/fixtures/llm/manifest.json).
  private static final int[] GREEDY = {91, 98, 121, 98, 127, 98, 127, 18, 98, 18, 18, 18, 18, 18,
      18, 18, 18};

  private static int[] prompt() throws IOException {
    byte[] raw = Files.readAllBytes(
        Paths.get("tests/fixtures/llm/llm_llama.core_aten.torch2_14.input0.bin"));
    ByteBuffer b = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
    int[] ids = new int[raw.length / 8];
    for (int i = 0; i < ids.length; ++i) ids[i] = (int) b.getLong();
    return ids;
  }

  private static void expectError(String name, Runnable r) {
    try {
      r.run();
      fail("expected " + name);
    } catch (EmberException e) {
      assertEquals(e.getMessage(), name, e.statusName());
    }
  }

  @Test
  public void greedyStreamsPyTorchsTokens() throws IOException {
    try (LlmModule llm = LlmModule.load(PTE, null)) {
      StringBuilder text = new StringBuilder();
      int[] tokens = llm.generate(prompt(), new LlmModule.Config().maxNewTokens(GREEDY.length),
          piece -> {
            text.append(piece);
            return true;
          });
      assertArrayEquals(GREEDY, tokens);
      StringBuilder want = new StringBuilder();
      for (int t : GREEDY) want.append(t).append(' ');
      assertEquals(want.toString(), text.toString());
      LlmModule.Stats stats = llm.stats();
      assertEquals(5, stats.promptTokens);
      assertEquals(5, stats.prefillEvaluated);
      assertEquals(GREEDY.length, stats.generatedTokens);
      assertTrue(stats.decodeMs > 0);
      // The same conversation again with two more tokens: only those two run.
      int[] more = Arrays.copyOf(llm.sessionTokens(), llm.sessionTokens().length + 2);
      more[more.length - 2] = 3;
      more[more.length - 1] = 4;
      llm.generate(more, new LlmModule.Config().maxNewTokens(2), null);
      assertEquals(2, llm.stats().prefillEvaluated);
      assertEquals(more.length - 2, llm.stats().prefillReused);
    }
  }

  @Test
  public void stopFromAnotherThread() throws Exception {
    try (LlmModule llm = LlmModule.load(PTE, null)) {
      AtomicInteger pieces = new AtomicInteger();
      Object gate = new Object();
      Thread stopper = new Thread(() -> {
        synchronized (gate) {
          while (pieces.get() < 2) {
            try {
              gate.wait();
            } catch (InterruptedException e) {
              return;
            }
          }
        }
        llm.stop();
        synchronized (gate) {
          gate.notifyAll();
        }
      });
      stopper.start();
      int[] tokens = llm.generate(prompt(), new LlmModule.Config().maxNewTokens(16), piece -> {
        synchronized (gate) {
          if (pieces.incrementAndGet() == 2) {
            gate.notifyAll();
            try {
              gate.wait(10000);  // until stop() was called
            } catch (InterruptedException e) {
              return false;
            }
          }
        }
        return true;
      });
      stopper.join();
      assertEquals(2, pieces.get());
      assertTrue(tokens.length <= 3);
    }
  }

  @Test
  public void saveRestoreContinuesLikeAnUninterruptedRun() throws IOException {
    String file = System.getenv().getOrDefault("TEST_TMPDIR", "/tmp") + "/java.session";
    LlmModule.Config config =
        new LlmModule.Config().temperature(0.8f).topK(30).seed(21).maxNewTokens(12);
    int[] whole;
    try (LlmModule llm = LlmModule.load(PTE, null)) {
      whole = llm.generate(prompt(), config, null);
    }
    int[] first;
    try (LlmModule llm = LlmModule.load(PTE, null)) {
      first = llm.generate(prompt(), config.maxNewTokens(6), null);
      llm.saveSession(file);
    }
    try (LlmModule llm = LlmModule.load(PTE, null)) {
      llm.loadSession(file);
      int[] rest = llm.continueGeneration((int[]) null, config, null);
      int[] joined = Arrays.copyOf(first, 12);
      System.arraycopy(rest, 0, joined, 6, rest.length);
      assertArrayEquals(whole, joined);
      assertEquals(0, llm.stats().prefillEvaluated);
      expectError("NotFound", () -> llm.loadSession(file + ".missing"));
    }
  }

  @Test
  public void twoSessionsOnTwoThreadsAtOnce() throws Exception {
    int[] other = {5, 4, 3, 2, 1};
    LlmModule.Config config = new LlmModule.Config().maxNewTokens(GREEDY.length);
    try (LlmModule llm = LlmModule.load(PTE, null); LlmModule second = llm.newSession()) {
      int[] otherAlone = second.generate(other, config, null);
      second.reset();
      int[][] got = new int[2][];
      int[] p = prompt();
      Thread a = new Thread(() -> got[0] = llm.generate(p, config, null));
      Thread b = new Thread(() -> got[1] = second.generate(other, config, null));
      a.start();
      b.start();
      a.join();
      b.join();
      assertArrayEquals(GREEDY, got[0]);
      assertArrayEquals(otherAlone, got[1]);
      assertNotEquals(Arrays.toString(got[0]), Arrays.toString(got[1]));
      try (LlmModule fork = llm.fork()) {
        assertArrayEquals(llm.sessionTokens(), fork.sessionTokens());
      }
    }
  }

  @Test
  public void memoryEstimateAndErrors() {
    LlmModule.Memory m = LlmModule.estimateMemory(PTE);
    assertTrue(m.kvCacheBytes > 0);
    assertTrue(m.plannedBytes >= m.kvCacheBytes);
    assertEquals(128, m.vocabSize);
    assertEquals(m.fileBytes + m.plannedBytes + m.tempBytes, m.totalBytes);
    expectError("NotFound", () -> LlmModule.estimateMemory("/nonexistent.pte"));
    expectError("NotFound", () -> LlmModule.load("/nonexistent.pte", null));
    LlmModule llm = LlmModule.load(PTE, null);
    expectError("InvalidArgument", () -> llm.rewind(1000));
    llm.close();
    llm.close();  // idempotent
    expectError("InvalidState", () -> llm.sessionTokens());
  }
}
