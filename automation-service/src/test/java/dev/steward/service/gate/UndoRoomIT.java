package dev.steward.service.gate;

import static dev.steward.service.TestService.args;
import static dev.steward.service.TestService.id;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.method.Preflight;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.protocol.tool.ToolResult;
import dev.steward.service.TestService;
import dev.steward.service.undo.UndoStore;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
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
    keptEarlier(since, 10_000);
  }

  /** An earlier call's undo data, its file sparse, leaving {@code free} bytes of the cap. */
  private void keptEarlier(Instant since, long free) throws Exception {
    Path folder = Files.createDirectories(t.home.data().resolve("undo/7"));
    try (RandomAccessFile f = new RandomAccessFile(folder.resolve("old").toFile(), "rw")) {
      f.setLength(UndoStore.DEFAULT_CAP_BYTES - free);
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

  @Test
  void an_overwrite_the_user_approved_pushes_out_what_it_must() throws Exception {
    keptEarlier(t.clock.instant().minus(Duration.ofDays(1)));
    ToolResult r = TestService.execApproved(
        t.client(Role.UI),
        t.client(Role.AGENT),
        "files.write_text",
        args("path", "notes/n.txt", "content", "new"),
        "c1");
    assertTrue(r.ok(), () -> "a click is enough to push out this week's data: " + r.error());
    assertEquals("new", Files.readString(t.root.resolve("notes/n.txt")));
  }

  /**
   * Granted overwrites sent at once, with room for one's undo data: each is judged with the others'
   * room held, so one runs and the others ask, and the earlier call's data is kept.
   */
  @Test
  void granted_overwrites_sent_at_once_share_the_room_they_are_judged_against() throws Exception {
    int calls = 6;
    for (int i = 0; i < calls; i++)
      Files.write(t.root.resolve("notes/n" + i + ".txt"), new byte[20_000]);
    keptEarlier(t.clock.instant().minus(Duration.ofDays(1)), 30_000);
    StewardClient agent = t.client(Role.AGENT);
    ExecutorService pool = Executors.newFixedThreadPool(calls);
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<ToolResult>> sent = new ArrayList<>();
      for (int i = 0; i < calls; i++) {
        JsonNode a = args("path", "notes/n" + i + ".txt", "content", "new");
        sent.add(pool.submit(() -> {
          go.await();
          return TestService.exec(agent, "files.write_text", a);
        }));
      }
      go.countDown();
      int ran = 0;
      for (Future<ToolResult> f : sent) {
        ToolResult r = f.get(30, TimeUnit.SECONDS);
        if (r.ok()) ran++;
        else
          assertEquals(ToolErrorCodes.TOKEN_MISSING, r.error().code(), r.error().message());
      }
      assertEquals(1, ran, "room for one call's undo data");
    } finally {
      pool.shutdownNow();
    }
    assertTrue(Files.exists(t.home.data().resolve("undo/7/old")), "this week's undo data is kept");
  }
}
