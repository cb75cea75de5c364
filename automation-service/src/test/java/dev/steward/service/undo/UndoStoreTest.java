package dev.steward.service.undo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The room the undo area holds for calls let run under a grant, before they keep their data. */
class UndoStoreTest {

  @TempDir
  Path dir;

  private static final Instant WEEK_AGO = Instant.now().minus(UndoStore.KEPT_AT_LEAST);

  /** An earlier call's undo data of {@code bytes}, kept since {@code since}. */
  private void kept(long id, int bytes, Instant since) throws Exception {
    Path folder = Files.createDirectories(dir.resolve(Long.toString(id)));
    Files.write(folder.resolve("old"), new byte[bytes]);
    Files.setLastModifiedTime(folder, FileTime.from(since));
  }

  @Test
  void two_calls_that_each_fit_alone_are_not_both_let_push_out_recent_data() throws Exception {
    kept(1, 6_000, Instant.now());
    UndoStore store = new UndoStore(dir, 10_000);
    Optional<UndoStore.Held> first = store.holdUnlessPushesOutSince(3_000, WEEK_AGO);
    assertTrue(first.isPresent(), "alone, it fits beside this week's data");
    assertTrue(
        store.holdUnlessPushesOutSince(3_000, WEEK_AGO).isEmpty(),
        "the second is judged with the first's room taken");
    assertTrue(store.pushesOutSince(3_000, WEEK_AGO), "a preflight sees the room taken too");
    first.get().giveBack();
    first.get().giveBack(); // once only
    assertTrue(store.holdUnlessPushesOutSince(3_000, WEEK_AGO).isPresent());
    assertTrue(store.holdUnlessPushesOutSince(1_000, WEEK_AGO).isPresent(), "to the cap exactly");
    assertTrue(store.holdUnlessPushesOutSince(1, WEEK_AGO).isEmpty());
  }

  @Test
  void a_call_being_undone_keeps_its_folder_from_the_cap_and_from_a_second_undo() throws Exception {
    Instant old = Instant.now().minus(Duration.ofDays(30));
    kept(1, 4_000, old);
    kept(2, 4_000, old);
    UndoStore store = new UndoStore(dir, 10_000);
    Optional<UndoStore.Undoing> first = store.undoing(1);
    assertTrue(first.isPresent());
    assertTrue(store.undoing(1).isEmpty(), "one undo of a row at a time");
    Path folder = store.folder(3);
    Files.write(folder.resolve("old"), new byte[4_000]);
    store.save(
        3, UndoRecord.of("files.write_text", "write", dev.steward.protocol.json.Json.object()));
    assertTrue(Files.exists(dir.resolve("1/old")), "not removed while it is put back");
    assertFalse(Files.exists(dir.resolve("2")), "the next oldest went instead");
    first.get().close();
    assertTrue(store.undoing(1).isPresent(), "free again once the undo ended");
  }

  @Test
  void room_held_past_the_cap_is_counted_exactly_however_many_hold_it() throws Exception {
    kept(1, 1_000, Instant.now());
    UndoStore store = new UndoStore(dir, 10_000);
    UndoStore.Held a = store.hold(Long.MAX_VALUE / 2);
    UndoStore.Held b = store.hold(Long.MAX_VALUE / 2);
    UndoStore.Held c = store.hold(Long.MAX_VALUE / 2);
    a.giveBack();
    b.giveBack();
    assertTrue(store.pushesOutSince(0, WEEK_AGO), "one is still held");
    c.giveBack();
    assertFalse(store.pushesOutSince(0, WEEK_AGO));
    assertTrue(store.holdUnlessPushesOutSince(9_000, WEEK_AGO).isPresent());
  }

  @Test
  void past_a_folder_being_undone_the_cap_takes_none_of_this_weeks() throws Exception {
    kept(1, 6_000, Instant.now().minus(Duration.ofDays(30)));
    kept(2, 3_000, Instant.now());
    UndoStore store = new UndoStore(dir, 10_000);
    // Judged with row 1 as what the cap would take; then row 1's undo begins.
    assertTrue(store.holdUnlessPushesOutSince(4_000, WEEK_AGO).isPresent());
    Optional<UndoStore.Undoing> undoing = store.undoing(1);
    assertTrue(undoing.isPresent());
    Files.write(store.folder(3).resolve("old"), new byte[4_000]);
    assertEquals(
        java.util.List.of(),
        store.save(
            3,
            UndoRecord.of("files.write_text", "write", dev.steward.protocol.json.Json.object())));
    assertTrue(Files.exists(dir.resolve("2/old")), "this week's row stays, over the cap");
    assertTrue(Files.exists(dir.resolve("1/old")));
  }

  @Test
  void a_record_saved_again_keeps_its_calls_time_across_a_restart() throws Exception {
    kept(1, 6_000, Instant.now().minus(Duration.ofDays(30)));
    UndoStore store = new UndoStore(dir, 10_000);
    // As an undo does: the record saved again, marked undone.
    store.save(
        1, UndoRecord.of("files.write_text", "write", dev.steward.protocol.json.Json.object()));
    UndoStore restarted = new UndoStore(dir, 10_000);
    assertFalse(restarted.pushesOutSince(8_000, WEEK_AGO), "still a month old");
  }

  @Test
  void a_calls_time_is_the_gates_clocks() throws Exception {
    Instant monthAgo = Instant.now().minus(Duration.ofDays(30));
    UndoStore store =
        new UndoStore(dir, 10_000, java.time.Clock.fixed(monthAgo, java.time.ZoneOffset.UTC));
    Files.write(store.folder(1).resolve("old"), new byte[6_000]);
    store.save(
        1, UndoRecord.of("files.write_text", "write", dev.steward.protocol.json.Json.object()));
    assertFalse(store.pushesOutSince(8_000, WEEK_AGO), "kept a month ago by the gate's clock");
    assertFalse(new UndoStore(dir, 10_000).pushesOutSince(8_000, WEEK_AGO), "and after a restart");
  }

  @Test
  void room_may_be_held_over_old_data_which_the_cap_pushes_out_unasked() throws Exception {
    kept(1, 6_000, Instant.now().minus(Duration.ofDays(30)));
    UndoStore store = new UndoStore(dir, 10_000);
    assertTrue(store.holdUnlessPushesOutSince(3_000, WEEK_AGO).isPresent());
    assertTrue(store.holdUnlessPushesOutSince(3_000, WEEK_AGO).isPresent());
    assertFalse(store.pushesOutSince(3_000, WEEK_AGO.plus(Duration.ofDays(30))));
  }

  @Test
  void what_cannot_be_measured_holds_no_room_beside_recent_data() throws Exception {
    kept(1, 1_000, Instant.now());
    UndoStore store = new UndoStore(dir, 10_000);
    assertTrue(store.holdUnlessPushesOutSince(Long.MAX_VALUE / 2, WEEK_AGO).isEmpty());
    assertTrue(store.holdUnlessPushesOutSince(8_000, WEEK_AGO).isPresent());
  }
}
