package dev.steward.service.tools;

import static dev.steward.service.TestService.args;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.method.Preflight;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.tool.Confirmation;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.protocol.tool.ToolResult;
import dev.steward.service.TestService;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A file call that needs the user's click and could not run as things stand is refused before any
 * dialog, with its row: no click is asked for a call that would fail after it. The user here
 * approves every write and move (Settings: "always ask"). What a dialog shows of a write is what
 * changes on disk.
 */
class WouldFailIT {

  static TestService t;
  static StewardClient ui;
  static StewardClient agent;

  @BeforeAll
  static void start() {
    t = TestService.start(p -> p.withOverrides(java.util.Map.of(
        "files.write_text", new PolicyDocument.ToolOverride(Confirmation.ALWAYS),
        "files.ensure_dir", new PolicyDocument.ToolOverride(Confirmation.ALWAYS),
        "files.move", new PolicyDocument.ToolOverride(Confirmation.ALWAYS))));
    ui = t.client(Role.UI);
    agent = t.client(Role.AGENT);
  }

  @AfterAll
  static void stop() {
    t.close();
  }

  /** Refused at the check, as the window would ask it and as the agent sends it. */
  static void refused(String tool, JsonNode args, String code, String field) {
    Preflight.Result shown = ui.preflight(TestService.id(), tool, args);
    assertEquals(Preflight.DENY, shown.decision(), shown.toString());
    assertEquals(code, shown.code(), shown.toString());
    assertEquals(field, shown.field(), shown.toString());
    assertNull(shown.preview(), "nothing is previewed for a dialog");
    String trace = TestService.id();
    ToolResult sent = TestService.exec(agent, trace, tool, args, null);
    assertFalse(sent.ok());
    assertEquals(code, sent.error().code(), String.valueOf(sent.error()));
    assertEquals("blocked", sent.audit().decision(), "with its row");
    assertEquals("blocked", t.row(ui, sent.audit().auditId()).decision());
  }

  @Test
  void a_move_onto_a_file_into_itself_or_of_nothing_is_refused_and_nothing_moves()
      throws Exception {
    Path dir = Files.createDirectories(t.root.resolve("move"));
    Files.writeString(dir.resolve("a.txt"), "a");
    Files.writeString(dir.resolve("b.txt"), "b");
    Files.createDirectories(dir.resolve("sub/inner"));
    refused(
        "files.move",
        args("from", "move/a.txt", "to", "move/b.txt"),
        ToolErrorCodes.ALREADY_EXISTS,
        "/to");
    refused(
        "files.move",
        args("from", "move/sub", "to", "move/sub/inner/sub"),
        ToolErrorCodes.EXECUTION_ERROR,
        "/to");
    refused(
        "files.move",
        args("from", "move/gone.txt", "to", "move/c.txt"),
        ToolErrorCodes.NOT_FOUND,
        "/from");
    refused(
        "files.move",
        args("from", "move/a.txt", "to", "move/no-such-folder/a.txt"),
        ToolErrorCodes.NOT_FOUND,
        "/to");
    // With a token (a grant asked for without a preflight), the run meets the same: the error
    // names the argument it is about.
    ToolResult tokened = TestService.execApproved(
        ui,
        agent,
        "files.move",
        args("from", "move/a.txt", "to", "move/no-such-folder/a.txt"),
        TestService.id());
    assertEquals(ToolErrorCodes.NOT_FOUND, tokened.error().code(), tokened.toString());
    assertEquals("/to", tokened.error().field());
    assertEquals("a", Files.readString(dir.resolve("a.txt")));
    assertEquals("b", Files.readString(dir.resolve("b.txt")));
    assertTrue(Files.isDirectory(dir.resolve("sub/inner")));

    // With overwrite, the same move is asked for, and runs once approved.
    JsonNode replace = args("from", "move/a.txt", "to", "move/b.txt", "overwrite", true);
    assertEquals(
        Preflight.CONFIRM, ui.preflight(TestService.id(), "files.move", replace).decision());
    assertTrue(TestService.execConfirmed(ui, agent, "files.move", replace).ok());
    assertEquals("a", Files.readString(dir.resolve("b.txt")));
  }

  @Test
  void deleting_a_full_folder_without_recursive_or_nothing_is_refused() throws Exception {
    Path dir = Files.createDirectories(t.root.resolve("del/full"));
    Files.writeString(dir.resolve("keep.txt"), "k");
    refused("files.delete", args("path", "del/full"), ToolErrorCodes.EXECUTION_ERROR, "/recursive");
    refused("files.delete", args("path", "del/none"), ToolErrorCodes.NOT_FOUND, "/path");
    assertEquals("k", Files.readString(dir.resolve("keep.txt")));
    JsonNode all = args("path", "del/full", "recursive", true);
    assertEquals(
        Preflight.CONFIRM, ui.preflight(TestService.id(), "files.delete", all).decision());
  }

  @Test
  void a_write_onto_a_folder_or_into_a_missing_one_is_refused_unless_it_makes_the_folder()
      throws Exception {
    Files.createDirectories(t.root.resolve("w/folder"));
    refused(
        "files.write_text",
        args("path", "w/folder", "content", "x"),
        ToolErrorCodes.EXECUTION_ERROR,
        "/path");
    refused(
        "files.write_text",
        args("path", "w/missing/new.txt", "content", "x"),
        ToolErrorCodes.NOT_FOUND,
        "/path");
    assertFalse(Files.exists(t.root.resolve("w/missing")));
    Files.writeString(t.root.resolve("w/plain"), "a file, not a folder");
    refused(
        "files.ensure_dir", args("path", "w/plain/sub"), ToolErrorCodes.EXECUTION_ERROR, "/path");
    assertEquals(
        Preflight.CONFIRM,
        ui.preflight(TestService.id(), "files.ensure_dir", args("path", "w/new/sub"))
            .decision());
    ToolResult made = TestService.execConfirmed(
        ui,
        agent,
        "files.write_text",
        args("path", "w/missing/new.txt", "content", "x", "create_dirs", true));
    assertTrue(made.ok(), String.valueOf(made.error()));
    assertEquals("x", Files.readString(t.root.resolve("w/missing/new.txt")));
  }

  /** No dialog, no look: the call runs and fails there, with the same error. */
  @Test
  void a_call_that_needs_no_click_fails_where_it_runs() throws Exception {
    JsonNode folder = args("path", "plain", "content", "x");
    try (TestService plain = TestService.start();
        StewardClient a = plain.client(Role.AGENT)) {
      Files.createDirectories(plain.root.resolve("plain"));
      assertEquals(
          Preflight.ALLOW,
          a.preflight(TestService.id(), "files.write_text", folder).decision());
      ToolResult failed = TestService.exec(a, "files.write_text", folder);
      assertEquals(ToolErrorCodes.EXECUTION_ERROR, failed.error().code());
      assertEquals("allowed", failed.audit().decision());
    }
  }

  @Test
  void rewriting_the_same_text_in_another_encoding_shows_the_bytes_change() throws Exception {
    Path file = t.root.resolve("notes.txt");
    Files.writeString(file, "café\n");
    JsonNode same = args("path", "notes.txt", "content", "café\n");
    assertEquals(
        "",
        ui.preflight(TestService.id(), "files.write_text", same)
            .preview()
            .path("diff")
            .asText(),
        "the same bytes: no change");
    JsonNode utf16 = args("path", "notes.txt", "content", "café\n", "encoding", "utf-16");
    String diff = ui.preflight(TestService.id(), "files.write_text", utf16)
        .preview()
        .path("diff")
        .asText();
    assertTrue(diff.contains("the text reads the same; its bytes change"), diff);
    assertTrue(TestService.execConfirmed(ui, agent, "files.write_text", utf16).ok());
    assertEquals("café\n", new String(Files.readAllBytes(file), StandardCharsets.UTF_16));
  }
}
