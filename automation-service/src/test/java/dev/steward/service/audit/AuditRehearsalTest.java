package dev.steward.service.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.protocol.audit.AuditKind;
import dev.steward.protocol.audit.Decision;
import dev.steward.protocol.audit.Outcome;
import dev.steward.protocol.json.CanonicalJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The warm-up's rehearsal of sealing rows: it touches no log, and the chain goes on as before. */
class AuditRehearsalTest {

  @TempDir
  Path dir;

  private static AuditEntry entry(AuditKind kind, String callId, Outcome result) {
    return new AuditEntry(
        kind,
        "t",
        callId,
        "files.read_text",
        null,
        "{\"path\":\"a\"}",
        Decision.ALLOWED,
        "allowed by policy",
        null,
        result,
        null,
        null,
        Instant.EPOCH,
        result == null ? null : Instant.EPOCH);
  }

  /**
   * Every file under the log's folder by name, with the bytes of the journal and the head (H2's own
   * files change as its loader and writer run, whatever is rehearsed).
   */
  private Map<Path, String> files() throws Exception {
    Map<Path, String> out = new TreeMap<>();
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.filter(Files::isRegularFile).toList()) {
        boolean read = p.equals(Journal.fileIn(dir)) || p.equals(dir.resolve("head"));
        out.put(
            dir.relativize(p), read ? CanonicalJson.sha256Hex(Files.readAllBytes(p)) : "present");
      }
    }
    return out;
  }

  @Test
  void rehearsed_rows_are_written_nowhere_and_the_log_goes_on_unbroken() throws Exception {
    try (AuditLog log = AuditLog.open(dir, Durability.PROCESS, new byte[32], dir.resolve("head"))) {
      log.record(entry(AuditKind.DECISION, "c1", null));
      Map<Path, String> before = files();

      AuditLog.rehearse(List.of(
          entry(AuditKind.DECISION, "warm", null),
          entry(AuditKind.COMPLETION, "warm", Outcome.OK)));

      assertEquals(before, files(), "no file made, and the journal and the head unchanged");
      assertEquals(1, log.lastSeq(), "no sequence number taken");
      assertEquals(2, log.record(entry(AuditKind.COMPLETION, "c1", Outcome.OK)).seq());
      var verified = log.verify();
      assertTrue(verified.ok(), String.valueOf(verified.problem()));
      assertEquals(2, verified.rowsChecked());
    }
  }
}
