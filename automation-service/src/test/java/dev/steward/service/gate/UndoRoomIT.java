package dev.steward.service.gate;

import static dev.steward.service.TestService.args;
import static dev.steward.service.TestService.id;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.protocol.method.Preflight;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.service.TestService;
import dev.steward.service.undo.UndoStore;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A standing grant is no click to push a recent call's undo data out of the undo area: an
 * overwrite that would asks first; one that pushes out only old data runs as granted.
 */
class UndoRoomIT {

  TestService t;

  @BeforeEach
  void start() throws Exception {
    t = TestService.start(p -> new PolicyDocument(
        p.paths(),
        p.apps(),
        p.hosts(),
        List.of(new PolicyDocument.StandingGrant(
            "notes", "files.write_text", List.of(p.paths().get(0).root() + "/notes"), null, null)),
        p.overrides(),
        p.confirmUnder()));
    Files.createDirectories(t.root.resolve("notes"));
    Files.write(t.root.resolve("notes/n.txt"), new byte[20_000]);
  }

  @AfterEach
  void stop() {
    t.close();
  }

  /** An earlier call's undo data, its file sparse, leaving 10,000 bytes of the cap free. */
  private void keptEarlier(Instant since) throws Exception {
    Path folder = Files.createDirectories(t.home.data().resolve("undo/7"));
    try (RandomAccessFile f = new RandomAccessFile(folder.resolve("old").toFile(), "rw")) {
      f.setLength(UndoStore.DEFAULT_CAP_BYTES - 10_000);
    }
    Files.setLastModifiedTime(folder, FileTime.from(since));
    t.restart();
  }

  private Preflight.Result overwrite() {
    return t.client(Role.AGENT)
        .preflight(id(), "files.write_text", args("path", "notes/n.txt", "content", "new"));
  }

  @Test
  void an_overwrite_that_would_push_out_this_weeks_undo_data_asks_despite_the_grant()
      throws Exception {
    assertEquals(Preflight.ALLOW, overwrite().decision(), "the grant waives the click");
    keptEarlier(t.clock.instant().minus(Duration.ofDays(1)));
    Preflight.Result r = overwrite();
    assertEquals(Preflight.CONFIRM, r.decision());
    assertTrue(r.reason().contains("push out the undo data"), r.reason());
  }

  @Test
  void pushing_out_older_undo_data_needs_no_click_under_the_grant() throws Exception {
    keptEarlier(t.clock.instant().minus(Duration.ofDays(30)));
    assertEquals(Preflight.ALLOW, overwrite().decision());
  }
}
