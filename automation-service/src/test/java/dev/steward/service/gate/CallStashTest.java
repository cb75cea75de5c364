package dev.steward.service.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.protocol.json.Json;
import dev.steward.service.undo.UndoRecord;
import dev.steward.service.undo.UndoStore;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a call's saving does to the undo area, and what its audit row says of it. */
class CallStashTest {

  @TempDir
  Path dir;

  private static UndoRecord record() {
    return UndoRecord.of("files.write_text", "write", Json.object());
  }

  private static void kept(CallStash stash, int bytes) throws Exception {
    Files.write(stash.folder().resolve("old"), new byte[bytes]);
    stash.save(record());
  }

  @Test
  void a_call_saved_again_is_counted_once_and_pushes_nothing_out() throws Exception {
    UndoStore store = new UndoStore(dir, 10_000);
    CallStash first = new CallStash(store, 1);
    kept(first, 4_000);
    CallStash second = new CallStash(store, 2);
    kept(second, 4_000);
    // A calendar change saves its record twice; an undo saves it again.
    second.save(record());
    second.save(record());
    assertEquals("", second.settle());
    assertTrue(Files.isDirectory(dir.resolve("1")), "row 1 can still be undone");
  }

  @Test
  void the_row_of_a_call_that_pushed_others_out_names_them() throws Exception {
    UndoStore store = new UndoStore(dir, 10_000);
    kept(new CallStash(store, 1), 4_000);
    kept(new CallStash(store, 2), 4_000);
    CallStash big = new CallStash(store, 3);
    kept(big, 9_000);
    assertEquals(
        "; to keep the undo area under its size, the undo data of 2 earlier rows, 1 2, were"
            + " removed",
        big.settle());
    assertFalse(Files.exists(dir.resolve("1")));
    assertTrue(Files.isDirectory(dir.resolve("3")), "never the newest");
  }

  @Test
  void what_a_failed_call_left_is_kept_and_counted_and_a_running_calls_folder_is_never_taken()
      throws Exception {
    UndoStore store = new UndoStore(dir, 10_000);
    kept(new CallStash(store, 1), 3_000);
    CallStash failed = new CallStash(store, 2);
    // A move that failed half-way: the user's file, moved aside, is the only copy.
    Files.write(failed.folder().resolve("replaced"), new byte[3_000]);
    assertEquals("", failed.settle());
    assertTrue(Files.exists(dir.resolve("2/replaced")));
    CallStash running = new CallStash(store, 3);
    Files.write(running.folder().resolve("before-1"), new byte[1_000]);
    CallStash big = new CallStash(store, 4);
    kept(big, 7_000);
    assertFalse(Files.exists(dir.resolve("1")), "the oldest goes first");
    assertFalse(Files.exists(dir.resolve("2")), "counted, what the failed call left goes in turn");
    assertTrue(Files.exists(dir.resolve("3/before-1")), "a running call's folder is not taken");
  }
}
