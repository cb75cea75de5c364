package dev.steward.service.undo;

import static dev.steward.service.TestService.args;
import static dev.steward.service.TestService.id;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.client.ClientException;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.jsonrpc.ErrorCodes;
import dev.steward.protocol.method.Audit;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Grant;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.Preflight;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.protocol.tool.ToolResult;
import dev.steward.service.TestService;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Overwrites, moves and deletes round-trip through tool.undo; a changed target is never clobbered. */
class UndoIT {

  TestService t;
  StewardClient ui;
  StewardClient agent;

  @BeforeEach
  void start() throws Exception {
    t = TestService.start();
    ui = t.client(Role.UI);
    agent = t.client(Role.AGENT);
  }

  @AfterEach
  void stop() {
    t.close();
  }

  private ToolResult run(String tool, JsonNode args) {
    ToolResult r = TestService.execConfirmed(ui, agent, tool, args);
    assertTrue(r.ok(), tool + ": " + r.error());
    return r;
  }

  private ToolResult undo(ToolResult of) {
    return ui.call(
        Methods.TOOL_UNDO, new Execute.UndoParams(of.audit().auditId()), ToolResult.class);
  }

  @Test
  void an_overwrite_is_undone_and_the_undo_is_logged() throws Exception {
    Path f = t.root.resolve("a.txt");
    Files.writeString(f, "original\n");
    ToolResult w = run("files.write_text", args("path", "a.txt", "content", "replaced\n"));
    assertEquals("replaced\n", Files.readString(f));
    ToolResult u = undo(w);
    assertTrue(u.ok(), String.valueOf(u.error()));
    assertEquals("original\n", Files.readString(f));
    Audit.QueryResult rows =
        ui.call(Methods.AUDIT_QUERY, Map.of("tool", "tool.undo"), Audit.QueryResult.class);
    assertEquals(
        List.of("completion", "decision"),
        rows.rows().stream().map(Audit.Row::kind).toList());
    assertEquals("ok", rows.rows().get(0).result());
    assertEquals(ToolErrorCodes.ALREADY_EXISTS, undo(w).error().code(), "a second undo is refused");
  }

  @Test
  void an_undo_is_refused_when_the_file_changed_since() throws Exception {
    Path f = t.root.resolve("b.txt");
    Files.writeString(f, "v1");
    ToolResult w = run("files.write_text", args("path", "b.txt", "content", "v2"));
    Files.writeString(f, "the user's own edit");
    ToolResult u = undo(w);
    assertFalse(u.ok());
    assertTrue(u.error().message().contains("changed since"), u.error().message());
    assertEquals("the user's own edit", Files.readString(f));
  }

  @Test
  void a_move_is_undone() throws Exception {
    Files.writeString(t.root.resolve("from.txt"), "data");
    ToolResult m = run("files.move", args("from", "from.txt", "to", "sub-to.txt"));
    assertFalse(Files.exists(t.root.resolve("from.txt")));
    assertTrue(undo(m).ok());
    assertEquals("data", Files.readString(t.root.resolve("from.txt")));
    assertFalse(Files.exists(t.root.resolve("sub-to.txt")));
  }

  @Test
  void a_move_that_replaced_a_file_is_undone_with_both_files_back() throws Exception {
    Files.writeString(t.root.resolve("x.txt"), "x");
    Files.writeString(t.root.resolve("y.txt"), "y");
    Preflight.Result p = agent.preflight(
        id(), "files.move", args("from", "x.txt", "to", "y.txt", "overwrite", true));
    assertEquals("confirm", p.decision());
    assertTrue(p.preview().get("overwrites").asBoolean());
    ToolResult m = run("files.move", args("from", "x.txt", "to", "y.txt", "overwrite", true));
    assertTrue(m.value().get("overwritten").asBoolean());
    assertEquals("x", Files.readString(t.root.resolve("y.txt")));
    assertTrue(undo(m).ok());
    assertEquals("x", Files.readString(t.root.resolve("x.txt")));
    assertEquals("y", Files.readString(t.root.resolve("y.txt")));
  }

  @Test
  void a_move_onto_an_existing_file_without_overwrite_is_refused() throws Exception {
    Files.writeString(t.root.resolve("p.txt"), "p");
    Files.writeString(t.root.resolve("q.txt"), "q");
    String trace = id();
    JsonNode a = args("from", "p.txt", "to", "q.txt");
    String token = ui.grant(
            new Grant.Params(trace, List.of(new Grant.Call("files.move", a)), null, null, 60, null))
        .confirmToken();
    ToolResult r = agent.execute(new Execute.Params(trace, id(), "files.move", a, token, null));
    assertEquals(ToolErrorCodes.ALREADY_EXISTS, r.error().code());
    assertEquals("q", Files.readString(t.root.resolve("q.txt")));
  }

  @Test
  void a_deleted_file_goes_to_the_undo_area_and_comes_back() throws Exception {
    Files.writeString(t.root.resolve("gone.txt"), "keep me");
    assertEquals(
        "confirm",
        agent.preflight(id(), "files.delete", args("path", "gone.txt")).decision());
    ToolResult d = run("files.delete", args("path", "gone.txt"));
    assertFalse(Files.exists(t.root.resolve("gone.txt")));
    assertEquals(
        "keep me",
        Files.readString(t.home.data().resolve("undo/" + d.audit().auditId() + "/payload")));
    assertTrue(undo(d).ok());
    assertEquals("keep me", Files.readString(t.root.resolve("gone.txt")));
  }

  @Test
  void a_deleted_folder_comes_back_with_its_structure() throws Exception {
    Files.createDirectories(t.root.resolve("tree/a/b"));
    Files.writeString(t.root.resolve("tree/a/b/leaf.txt"), "leaf");
    Files.writeString(t.root.resolve("tree/top.txt"), "top");
    JsonNode all = args("path", "tree", "recursive", true);
    ToolResult refused =
        agent.execute(new Execute.Params(id(), id(), "files.delete", all, null, null));
    assertEquals(ToolErrorCodes.TOKEN_MISSING, refused.error().code());
    ToolResult d = run("files.delete", all);
    assertFalse(Files.exists(t.root.resolve("tree")));
    assertTrue(undo(d).ok());
    assertEquals("leaf", Files.readString(t.root.resolve("tree/a/b/leaf.txt")));
    assertEquals("top", Files.readString(t.root.resolve("tree/top.txt")));
  }

  @Test
  void a_delete_is_not_undone_over_a_new_file_at_the_same_path() throws Exception {
    Files.writeString(t.root.resolve("c.txt"), "old");
    ToolResult d = run("files.delete", args("path", "c.txt"));
    Files.writeString(t.root.resolve("c.txt"), "new work");
    ToolResult u = undo(d);
    assertEquals(ToolErrorCodes.ALREADY_EXISTS, u.error().code());
    assertEquals("new work", Files.readString(t.root.resolve("c.txt")));
  }

  @Test
  void a_non_empty_folder_needs_recursive() throws Exception {
    Files.createDirectories(t.root.resolve("full"));
    Files.writeString(t.root.resolve("full/x"), "x");
    String trace = id();
    JsonNode a = args("path", "full");
    String token = ui.grant(new Grant.Params(
            trace, List.of(new Grant.Call("files.delete", a)), null, null, 60, null))
        .confirmToken();
    ToolResult r = agent.execute(new Execute.Params(trace, id(), "files.delete", a, token, null));
    assertEquals("/recursive", r.error().field());
    assertTrue(Files.exists(t.root.resolve("full/x")));
  }

  @Test
  void the_preview_of_an_overwrite_shows_a_unified_diff() throws Exception {
    Files.writeString(t.root.resolve("d.txt"), "one\ntwo\nthree\n");
    // The diff shows the file's contents: it is for the window (ui), never handed to the agent.
    Preflight.Result p =
        ui.preflight(id(), "files.write_text", args("path", "d.txt", "content", "one\n2\nthree\n"));
    String diff = p.preview().get("diff").asText();
    assertTrue(diff.contains("-two\n") && diff.contains("+2\n") && diff.contains(" one\n"), diff);
    assertTrue(diff.contains("@@ -1,3 +1,3 @@"), diff);
    assertTrue(
        diff.indexOf("-two\n") < diff.indexOf("+2\n"), "removals come before additions: " + diff);
  }

  @Test
  void only_the_ui_may_undo() throws Exception {
    Files.writeString(t.root.resolve("e.txt"), "e");
    ToolResult w = run("files.write_text", args("path", "e.txt", "content", "f"));
    ClientException e = org.junit.jupiter.api.Assertions.assertThrows(
        ClientException.class,
        () -> agent.call(
            Methods.TOOL_UNDO, new Execute.UndoParams(w.audit().auditId()), ToolResult.class));
    assertEquals(ErrorCodes.FORBIDDEN, e.rpcError().code());
  }

  @Test
  void nothing_to_undo_is_a_clear_not_found() {
    ToolResult r = ui.call(Methods.TOOL_UNDO, new Execute.UndoParams("999999"), ToolResult.class);
    assertEquals(ToolErrorCodes.NOT_FOUND, r.error().code());
  }
}
