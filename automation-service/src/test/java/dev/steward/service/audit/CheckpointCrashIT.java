package dev.steward.service.audit;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.protocol.audit.AuditKind;
import dev.steward.protocol.audit.Decision;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A checkpoint is what lets the journal drop rows (AuditLog rotates it to the checkpointed row),
 * so every row a returned checkpoint covered must survive a SIGKILL of the process. A child JVM
 * inserts batches and checkpoints after every few, as the audit loader does, through the store
 * as the service opens it; it is killed at random moments, and H2 must still hold every row up to
 * the last checkpoint the child reported. With H2's background writer on (its default), this lost
 * rows in most runs.
 */
class CheckpointCrashIT {

  /** 200 rows of ~1 KB a batch: a checkpoint every 3 MB, with H2's own stores of unsaved changes in between. */
  private static final int BATCHES_A_CHECKPOINT = 15;

  @TempDir
  Path tmp;

  /** The child: inserts batches of chained rows, checkpoints, and reports each checkpoint on stdout. */
  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    AuditStore store = AuditStore.open(dir);
    long seq = store.maxSeq();
    String prev = seq == 0 ? ChainedRow.GENESIS : store.row(seq).orElseThrow().rowHash();
    while (true) {
      List<ChainedRow> batch = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        ChainedRow row = ChainedRow.chain(
            ++seq,
            new AuditEntry(
                AuditKind.DECISION,
                "t",
                "c" + seq,
                "files.read_text",
                null,
                null,
                Decision.ALLOWED,
                null,
                null,
                null,
                null,
                "x".repeat(1000),
                Instant.now(),
                null),
            prev);
        prev = row.rowHash();
        batch.add(row);
      }
      store.insert(batch);
      if (seq % (200 * BATCHES_A_CHECKPOINT) == 0) {
        store.checkpoint();
        System.out.println("CP " + seq);
        System.out.flush();
      }
    }
  }

  /** What makes a checkpoint hold: no background writer storing on its own schedule beside it. */
  @Test
  void the_store_runs_without_h2s_background_writer() throws Exception {
    AuditStore store = AuditStore.open(tmp);
    try (java.sql.Connection c = java.sql.DriverManager.getConnection(AuditStore.url(tmp));
        java.sql.ResultSet rs = c.createStatement()
            .executeQuery(
                "SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS WHERE SETTING_NAME = 'WRITE_DELAY'")) {
      assertTrue(rs.next(), "H2 reports its write delay");
      org.junit.jupiter.api.Assertions.assertEquals("0", rs.getString(1));
    } finally {
      store.close();
    }
  }

  @Test
  void every_checkpointed_row_survives_a_sigkill() throws Exception {
    Random random = new Random();
    for (int round = 0; round < 30; round++) {
      Process child = new ProcessBuilder(
              Path.of(System.getProperty("java.home"), "bin", "java").toString(),
              "-cp",
              System.getProperty("java.class.path"),
              CheckpointCrashIT.class.getName(),
              tmp.toString())
          .redirectError(ProcessBuilder.Redirect.INHERIT)
          .start();
      AtomicLong checkpointed = new AtomicLong(-1);
      Thread reader = new Thread(() -> {
        try (BufferedReader in = new BufferedReader(
            new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
          for (String line; (line = in.readLine()) != null; ) {
            if (line.startsWith("CP ")) checkpointed.set(Long.parseLong(line.substring(3)));
          }
        } catch (java.io.IOException e) {
          // killed
        }
      });
      reader.start();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (checkpointed.get() < 0 && child.isAlive() && System.nanoTime() < deadline)
        Thread.sleep(5);
      Thread.sleep(20 + random.nextInt(400)); // then a kill at any moment of its loop
      assertTrue(child.isAlive(), "the child died by itself");
      child.destroyForcibly(); // SIGKILL
      child.waitFor();
      reader.join();
      assertTrue(checkpointed.get() > 0, "the child checkpointed before it was killed");
      AuditStore store = AuditStore.open(tmp);
      try {
        long stored = store.maxSeq();
        assertTrue(
            stored >= checkpointed.get(),
            "round " + round + ": H2 holds rows up to " + stored + " after a checkpoint of row "
                + checkpointed.get() + " returned");
      } finally {
        store.close();
      }
    }
  }
}
