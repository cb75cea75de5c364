package dev.steward.service.audit;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.protocol.audit.AuditKind;
import dev.steward.protocol.audit.Decision;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The loader alone: a reader gets the rows it must see, or a failure — never stale rows. */
class AuditLoaderTest {

  @TempDir
  Path dir;

  private static final AuditLoader.Upkeep NONE = new AuditLoader.Upkeep() {
    @Override
    public boolean journalUnsynced() {
      return false;
    }

    @Override
    public void syncJournalIfDue() {}

    @Override
    public void checkpointed(ChainMark mark) {}
  };

  private static ChainedRow row(long seq) {
    return ChainedRow.chain(
        seq,
        new AuditEntry(
            AuditKind.DECISION,
            "t",
            "c" + seq,
            "x",
            null,
            null,
            Decision.ALLOWED,
            null,
            null,
            null,
            null,
            null,
            Instant.EPOCH,
            null),
        ChainedRow.GENESIS);
  }

  @Test
  void a_reader_waits_for_the_rows_it_must_see() throws Exception {
    AuditStore store = AuditStore.open(dir);
    AuditLoader loader =
        new AuditLoader(store, null, NONE, ChainMark.START, Duration.ofSeconds(10));
    loader.start();
    loader.add(row(1));
    assertDoesNotThrow(() -> loader.awaitApplied(1));
    assertTrue(store.row(1).isPresent());
    assertTrue(loader.stop(1));
    store.close();
  }

  @Test
  void a_reader_whose_rows_do_not_reach_h2_in_time_fails_instead_of_reading_stale_rows()
      throws Exception {
    AuditStore store = AuditStore.open(dir);
    store.close(); // every insert now fails: the loader keeps retrying, H2 stays behind
    AuditLoader loader =
        new AuditLoader(store, null, NONE, ChainMark.START, Duration.ofMillis(300));
    loader.start();
    loader.add(row(1));
    AuditUnavailableException e =
        assertThrows(AuditUnavailableException.class, () -> loader.awaitApplied(1));
    assertTrue(e.getMessage().contains("behind"), e.getMessage());
    loader.stop(1);
  }
}
