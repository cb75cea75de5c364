package dev.steward.service.tools.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.protocol.json.Json;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.scope.Access;
import dev.steward.service.scope.FileStamp;
import dev.steward.service.scope.PathScope;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolFailure;
import dev.steward.service.tools.UndoStash;
import dev.steward.service.undo.UndoRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A folder deleted on an approval is looked at again once it is in the undo area. */
class DeleteFileTest {

  @TempDir
  Path tmp;

  Path docs;
  Path stash;
  PathScope scope;
  final List<UndoRecord> kept = new ArrayList<>();

  @BeforeEach
  void setUp() throws Exception {
    Path base = tmp.toRealPath();
    docs = Files.createDirectories(base.resolve("home/Docs"));
    stash = Files.createDirectories(base.resolve("undo/1"));
    scope = PathScope.of(
        List.of(new PolicyDocument.PathRoot("~/Docs", "read_write")),
        List.of(),
        base.resolve("home"));
    Files.createDirectories(docs.resolve("proj/sub"));
    Files.writeString(docs.resolve("proj/sub/a.txt"), "a");
  }

  private void delete(String approvedStamp) throws ToolFailure, Exception {
    delete("proj", approvedStamp);
  }

  private void delete(String name, String approvedStamp) throws ToolFailure, Exception {
    UndoStash undo = new UndoStash() {
      @Override
      public Path folder() {
        return stash;
      }

      @Override
      public void save(UndoRecord record) {
        kept.add(record);
      }
    };
    var path = scope.resolve(name, Access.REMOVE);
    new DeleteFile()
        .run(
            Json.object().put("path", name).put("recursive", true),
            new ToolContext(
                Map.of("/path", path),
                scope,
                m -> {},
                true,
                undo,
                false,
                true,
                Map.of("/path", approvedStamp)));
  }

  @Test
  void a_folder_as_approved_is_deleted_and_kept_for_undo() throws Exception {
    delete(FileStamp.of(docs.resolve("proj"), Access.REMOVE));
    assertFalse(Files.exists(docs.resolve("proj")));
    assertEquals(1, kept.size());
    assertFalse(kept.get(0).undone());
  }

  @Test
  void a_folder_that_changed_after_its_checks_is_put_back_and_not_deleted() throws Exception {
    String approved = FileStamp.of(docs.resolve("proj"), Access.REMOVE);
    // Moved in after the gate's last look, where a walk had already passed.
    Files.writeString(docs.resolve("precious.txt"), "keep");
    Files.move(docs.resolve("precious.txt"), docs.resolve("proj/sub/precious.txt"));
    ToolFailure f = assertThrows(ToolFailure.class, () -> delete(approved));
    assertEquals(ToolErrorCodes.TOKEN_MISMATCH, f.error().code());
    assertEquals("keep", Files.readString(docs.resolve("proj/sub/precious.txt")));
    assertEquals("a", Files.readString(docs.resolve("proj/sub/a.txt")));
    assertTrue(kept.get(kept.size() - 1).undone(), "nothing is left to undo");
  }

  @Test
  void a_folder_moved_into_the_name_of_an_approved_file_is_put_back() throws Exception {
    Files.writeString(docs.resolve("notes.txt"), "notes");
    String approved = FileStamp.of(docs.resolve("notes.txt"), Access.REMOVE);
    Files.move(docs.resolve("notes.txt"), docs.resolve("notes-away.txt"));
    Files.move(docs.resolve("proj"), docs.resolve("notes.txt"));
    ToolFailure f = assertThrows(ToolFailure.class, () -> delete("notes.txt", approved));
    assertEquals(ToolErrorCodes.TOKEN_MISMATCH, f.error().code());
    assertEquals("a", Files.readString(docs.resolve("notes.txt/sub/a.txt")));
  }
}
