package dev.steward.service;

import static dev.steward.service.TestService.args;
import static dev.steward.service.TestService.id;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.client.ClientException;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Audit;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Grant;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.Preflight;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.protocol.tool.ToolResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Attacks on the gate, each through the real service: the refusal code, nothing changed on disk,
 * and the refusal in the audit log.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AdversarialIT {

  TestService t;
  StewardClient ui;
  StewardClient agent;
  Path root;
  Path base;

  @BeforeAll
  void start() throws Exception {
    t = TestService.start();
    ui = t.client(Role.UI);
    agent = t.client(Role.AGENT);
    root = t.root;
    base = t.base;
    Files.writeString(t.outside.resolve("secret.txt"), "outside");
    Files.writeString(base.resolve("root2/x.txt"), "sibling");
    Files.writeString(root.resolve("existing.txt"), "mine");
    Files.createDirectories(root.resolve(".ssh"));
    Files.writeString(root.resolve(".ssh/id_rsa"), "key");
    Files.createSymbolicLink(root.resolve("out-file"), t.outside.resolve("secret.txt"));
    Files.createSymbolicLink(root.resolve("out-dir"), t.outside);
    Files.createSymbolicLink(root.resolve("chain3"), t.outside);
    Files.createSymbolicLink(root.resolve("chain2"), root.resolve("chain3"));
    Files.createSymbolicLink(root.resolve("chain1"), Path.of("chain2"));
    Files.createDirectories(root.resolve("real"));
    Files.createSymbolicLink(root.resolve("real/mid"), Path.of("../../outside"));
    Files.createSymbolicLink(root.resolve("dangling"), t.outside.resolve("created-by-link.txt"));
    Files.createSymbolicLink(root.resolve("dangling-dir"), t.outside.resolve("newdir"));
    Files.createSymbolicLink(root.resolve("ro-link"), t.ro);
    Files.createSymbolicLink(root.resolve("cfg"), t.home.config());
    Files.createSymbolicLink(root.resolve("dat"), t.home.data());
  }

  @AfterAll
  void stop() {
    t.close();
  }

  record Case(String name, String tool, Function<AdversarialIT, JsonNode> args, String code) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Case c(String name, String tool, Function<AdversarialIT, JsonNode> args, String code) {
    return new Case(name, tool, args, code);
  }

  static final String SCOPE = ToolErrorCodes.SCOPE_DENIED;
  static final String INVALID = ToolErrorCodes.VALIDATION_ERROR;

  static Stream<Case> pathCases() {
    String deep = "a/".repeat(1000) + "../".repeat(1001) + "outside/x.txt";
    return Stream.of(
        c(
            "sibling prefix root2",
            "files.write_text",
            s -> args("path", s.base + "/root2/x.txt", "content", "x"),
            SCOPE),
        c(
            "sibling prefix root-evil",
            "files.write_text",
            s -> args("path", s.base + "/root-evil/x.txt", "content", "x"),
            SCOPE),
        c(
            "sibling prefix root.bak",
            "files.write_text",
            s -> args("path", s.base + "/root.bak/x.txt", "content", "x"),
            SCOPE),
        c(
            "read a sibling's file",
            "files.read_text",
            s -> args("path", s.base + "/root2/x.txt"),
            SCOPE),
        c("list a sibling", "files.list_dir", s -> args("path", s.base + "/root-evil"), SCOPE),
        c(
            "ensure_dir in a sibling",
            "files.ensure_dir",
            s -> args("path", s.base + "/root2/new"),
            SCOPE),
        c(
            "dot-dot out of an absolute path",
            "files.write_text",
            s -> args("path", s.root + "/../outside/x.txt", "content", "x"),
            SCOPE),
        c(
            "dot-dot out of a relative path",
            "files.write_text",
            s -> args("path", "../outside/x.txt", "content", "x"),
            SCOPE),
        c(
            "1000 a/ then 1001 ../",
            "files.write_text",
            s -> args("path", deep, "content", "x"),
            SCOPE),
        c(
            "down then up past the root",
            "files.write_text",
            s -> args("path", "a/../../outside/x.txt", "content", "x", "create_dirs", true),
            SCOPE),
        c(
            "absolute path outside: /etc/passwd",
            "files.read_text",
            s -> args("path", "/etc/passwd"),
            SCOPE),
        c(
            "absolute path outside: /tmp",
            "files.write_text",
            s -> args("path", "/tmp/steward-adv-" + id(), "content", "x"),
            SCOPE),
        c(
            "home folder outside the roots",
            "files.write_text",
            s -> args("path", "~/x.txt", "content", "x"),
            SCOPE),
        c("the file-system root", "files.list_dir", s -> args("path", "/"), SCOPE),
        c(
            "write into a read-only root",
            "files.write_text",
            s -> args("path", s.t.ro + "/new.txt", "content", "x"),
            SCOPE),
        c(
            "ensure_dir in a read-only root",
            "files.ensure_dir",
            s -> args("path", s.t.ro + "/d"),
            SCOPE),
        c(
            "symlinked file out: write",
            "files.write_text",
            s -> args("path", "out-file", "content", "x"),
            SCOPE),
        c("symlinked file out: read", "files.read_text", s -> args("path", "out-file"), SCOPE),
        c(
            "symlinked folder out: write",
            "files.write_text",
            s -> args("path", "out-dir/x.txt", "content", "x"),
            SCOPE),
        c("symlinked folder out: list", "files.list_dir", s -> args("path", "out-dir"), SCOPE),
        c(
            "chain of three links: read",
            "files.read_text",
            s -> args("path", "chain1/secret.txt"),
            SCOPE),
        c(
            "chain of three links: write",
            "files.write_text",
            s -> args("path", "chain1/new.txt", "content", "x"),
            SCOPE),
        c(
            "intermediate folder link: write",
            "files.write_text",
            s -> args("path", "real/mid/sub/new.txt", "content", "x", "create_dirs", true),
            SCOPE),
        c(
            "intermediate folder link: ensure_dir",
            "files.ensure_dir",
            s -> args("path", "real/mid/newdir"),
            SCOPE),
        c(
            "dangling link on write",
            "files.write_text",
            s -> args("path", "dangling", "content", "x"),
            SCOPE),
        c(
            "dangling link on ensure_dir",
            "files.ensure_dir",
            s -> args("path", "dangling-dir"),
            SCOPE),
        c(
            "link into a read-only root",
            "files.write_text",
            s -> args("path", "ro-link/x.txt", "content", "x"),
            SCOPE),
        c(
            ".ssh inside a root: write",
            "files.write_text",
            s -> args("path", ".ssh/authorized_keys", "content", "x"),
            SCOPE),
        c(".ssh inside a root: read", "files.read_text", s -> args("path", ".ssh/id_rsa"), SCOPE),
        c(".ssh inside a root: list", "files.list_dir", s -> args("path", ".ssh"), SCOPE),
        c(".gnupg inside a root", "files.ensure_dir", s -> args("path", ".gnupg"), SCOPE),
        c(
            ".SSH in another case",
            "files.write_text",
            s -> args("path", ".SSH/x", "content", "x", "create_dirs", true),
            SCOPE),
        c(
            "fullwidth dot .ssh (NFKC)",
            "files.write_text",
            s -> args("path", "\uFF0Essh/x", "content", "x", "create_dirs", true),
            SCOPE),
        c(
            "browser profile",
            "files.write_text",
            s -> args(
                "path", ".config/google-chrome/Default/x", "content", "x", "create_dirs", true),
            SCOPE),
        c(
            "Steward's config via a link",
            "files.write_text",
            s -> args("path", "cfg/policy.json", "content", "{}"),
            SCOPE),
        c(
            "Steward's H2 file via a link",
            "files.read_text",
            s -> args("path", "dat/audit.mv.db"),
            SCOPE),
        c(
            "Steward's config by absolute path",
            "files.read_text",
            s -> args("path", s.t.home.config() + "/ui.secret"),
            SCOPE),
        c(
            "NUL in a path",
            "files.write_text",
            s -> args("path", "a\u0000b", "content", "x"),
            SCOPE),
        c("empty path", "files.write_text", s -> args("path", "", "content", "x"), INVALID),
        c("missing content", "files.write_text", s -> args("path", "m.txt"), INVALID),
        c("path is a number", "files.read_text", s -> args("path", 42), INVALID),
        c(
            "unknown argument",
            "files.write_text",
            s -> args("path", "m.txt", "content", "x", "mode", "777"),
            INVALID),
        c("unknown tool", "shell.run", s -> args("cmd", "rm -rf ~"), INVALID),
        c(
            "args is an array",
            "files.read_text",
            s -> Json.mapper().createArrayNode().add("x"),
            INVALID),
        c(
            "path longer than 16384 characters",
            "files.read_text",
            s -> args("path", "a".repeat(20000)),
            INVALID),
        c(
            "a path deeper than the system lets a path name",
            "files.ensure_dir",
            s -> args("path", String.join("/", java.util.Collections.nCopies(20, "d".repeat(250)))),
            SCOPE),
        c(
            "overwrite without a token",
            "files.write_text",
            s -> args("path", "existing.txt", "content", "x"),
            ToolErrorCodes.TOKEN_MISSING),
        c(
            "move from a sibling prefix",
            "files.move",
            s -> args("from", s.base + "/root2/x.txt", "to", "stolen.txt"),
            SCOPE),
        c(
            "move to a sibling prefix",
            "files.move",
            s -> args("from", "existing.txt", "to", s.base + "/root-evil/x.txt"),
            SCOPE),
        c(
            "move out through a folder link",
            "files.move",
            s -> args("from", "existing.txt", "to", "out-dir/x.txt"),
            SCOPE),
        c(
            "move in from outside through a link",
            "files.move",
            s -> args("from", "out-file", "to", "copied.txt"),
            SCOPE),
        c(
            "move out of a read-only root",
            "files.move",
            s -> args("from", s.t.ro + "/a", "to", "a"),
            SCOPE),
        c(
            "move onto .ssh",
            "files.move",
            s -> args("from", "existing.txt", "to", ".ssh/authorized_keys", "overwrite", true),
            SCOPE),
        c(
            "move by dot-dot out",
            "files.move",
            s -> args("from", "existing.txt", "to", "../outside/x.txt"),
            SCOPE),
        c("delete outside", "files.delete", s -> args("path", s.t.outside + "/secret.txt"), SCOPE),
        c("delete through a file link", "files.delete", s -> args("path", "out-file/"), SCOPE),
        c(
            "delete in a sibling prefix",
            "files.delete",
            s -> args("path", s.base + "/root2/x.txt"),
            SCOPE),
        c(
            "delete Steward's config via a link",
            "files.delete",
            s -> args("path", "cfg/ui.secret"),
            SCOPE),
        c(
            "delete in a read-only root",
            "files.delete",
            s -> args("path", s.t.ro.toString()),
            SCOPE),
        c(
            "delete without a token",
            "files.delete",
            s -> args("path", "existing.txt"),
            ToolErrorCodes.TOKEN_MISSING));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("pathCases")
  void refused_with_nothing_changed_and_logged(Case c) {
    refusedAndLogged(c.tool(), c.args().apply(this), null, id(), c.code());
  }

  private ToolResult refusedAndLogged(
      String tool, JsonNode args, String token, String trace, String code) {
    Map<String, String> before = t.snapshot();
    String call = id();
    ToolResult r = agent.execute(new Execute.Params(trace, call, tool, args, token, null));
    assertFalse(r.ok(), "must be refused: " + tool + " " + args);
    assertEquals(code, r.error().code(), r.error().message());
    assertEquals(before, t.snapshot(), "nothing may change on disk");
    List<Audit.Row> rows = t.rows(ui, call);
    assertEquals(1, rows.size(), "one blocked row");
    assertEquals("blocked", rows.get(0).decision());
    assertEquals(code, rows.get(0).errorCode());
    return r;
  }

  // ---- tokens ------------------------------------------------------------------------------

  JsonNode overwrite(String content) {
    return args("path", "existing.txt", "content", content);
  }

  Grant.Result grant(String trace, String tool, JsonNode args, int ttl) {
    return ui.grant(
        new Grant.Params(trace, List.of(new Grant.Call(tool, args)), null, null, ttl, null));
  }

  @Test
  void a_garbage_token_is_invalid() {
    refusedAndLogged(
        "files.write_text", overwrite("x"), "hello", id(), ToolErrorCodes.TOKEN_INVALID);
  }

  @Test
  void a_forged_token_with_the_right_shape_is_invalid() {
    String trace = id();
    String real = grant(trace, "files.write_text", overwrite("x"), 60).confirmToken();
    String forged = real.substring(0, real.lastIndexOf('.') + 1) + "A".repeat(43);
    refusedAndLogged(
        "files.write_text", overwrite("x"), forged, trace, ToolErrorCodes.TOKEN_INVALID);
  }

  @Test
  void a_token_for_another_trace_is_a_mismatch() {
    String token = grant(id(), "files.write_text", overwrite("x"), 60).confirmToken();
    refusedAndLogged(
        "files.write_text", overwrite("x"), token, id(), ToolErrorCodes.TOKEN_MISMATCH);
  }

  @Test
  void changed_arguments_are_a_mismatch_but_key_order_is_not() throws Exception {
    String trace = id();
    String token = grant(trace, "files.write_text", overwrite("approved"), 60).confirmToken();
    refusedAndLogged(
        "files.write_text", overwrite("evil"), token, trace, ToolErrorCodes.TOKEN_MISMATCH);
    JsonNode reordered = Json.parse("{\"content\":\"approved\",\"path\":\"existing.txt\"}");
    ToolResult ok =
        agent.execute(new Execute.Params(trace, id(), "files.write_text", reordered, token, null));
    assertTrue(ok.ok(), String.valueOf(ok.error()));
    Files.writeString(root.resolve("existing.txt"), "mine");
  }

  @Test
  void a_link_pointed_elsewhere_after_the_approval_is_a_mismatch() throws Exception {
    // The user approved overwriting the file the link named then; it now names another of their
    // files, which they never saw in the dialog.
    Files.writeString(root.resolve("approved.txt"), "approved target");
    Files.writeString(root.resolve("other.txt"), "another file");
    Path link = root.resolve("moving-link");
    Files.createSymbolicLink(link, root.resolve("approved.txt"));
    String trace = id();
    JsonNode write = args("path", "moving-link", "content", "new words");
    String token = grant(trace, "files.write_text", write, 60).confirmToken();
    Files.delete(link);
    Files.createSymbolicLink(link, root.resolve("other.txt"));
    ToolResult refused =
        refusedAndLogged("files.write_text", write, token, trace, ToolErrorCodes.TOKEN_MISMATCH);
    assertTrue(
        String.valueOf(refused.error()).contains("approving again"),
        String.valueOf(refused.error()));
    assertEquals("another file", Files.readString(root.resolve("other.txt")));
    // Pointed back where it was, the same token does what was approved.
    Files.delete(link);
    Files.createSymbolicLink(link, root.resolve("approved.txt"));
    assertTrue(agent
        .execute(new Execute.Params(trace, id(), "files.write_text", write, token, null))
        .ok());
    assertEquals("new words", Files.readString(root.resolve("approved.txt")));
  }

  @Test
  void no_token_is_minted_for_what_the_dialog_showed_once_the_link_points_elsewhere()
      throws Exception {
    Files.writeString(root.resolve("shown.txt"), "shown");
    Files.writeString(root.resolve("unseen.txt"), "unseen");
    Path link = root.resolve("shown-link");
    Files.createSymbolicLink(link, root.resolve("shown.txt"));
    String trace = id();
    JsonNode write = args("path", "shown-link", "content", "x");
    // The window's own preview of the call, as its dialog shows it.
    List<String> shown = ui.preflight(trace, "files.write_text", write).paths();
    assertEquals(List.of(root.toRealPath().resolve("shown.txt").toString()), shown);
    // While the user reads the dialog, the link is pointed at a file they never saw.
    Files.delete(link);
    Files.createSymbolicLink(link, root.resolve("unseen.txt"));
    ClientException refused = assertThrows(
        ClientException.class,
        () -> ui.grant(new Grant.Params(
            trace,
            List.of(new Grant.Call("files.write_text", write, shown)),
            null,
            null,
            60,
            null)));
    assertTrue(refused.getMessage().contains("show it again"), refused.getMessage());
    assertTrue(Grant.shownChanged(refused), "the window can tell it apart and show it again");
    assertEquals(
        List.of(new Grant.Changed("files.write_text", shown.get(0), "elsewhere")),
        Grant.changes(refused),
        "and say which path now leads elsewhere");
    assertEquals("unseen", Files.readString(root.resolve("unseen.txt")));
  }

  @Test
  void another_file_moved_into_the_approved_path_is_a_mismatch() throws Exception {
    // A move to a new name needs no click in an untainted conversation: while the dialog is
    // open, another of the user's files takes the name the user approved overwriting.
    Files.writeString(root.resolve("report.txt"), "the report the user saw");
    Files.writeString(root.resolve("thesis.txt"), "a thesis never shown");
    String trace = id();
    JsonNode write = args("path", "report.txt", "content", "new words");
    String token = grant(trace, "files.write_text", write, 60).confirmToken();
    Files.move(root.resolve("report.txt"), root.resolve("report-old.txt"));
    Files.move(root.resolve("thesis.txt"), root.resolve("report.txt"));
    ToolResult refused =
        refusedAndLogged("files.write_text", write, token, trace, ToolErrorCodes.TOKEN_MISMATCH);
    assertTrue(
        String.valueOf(refused.error()).contains("changed since"), String.valueOf(refused.error()));
    assertEquals("a thesis never shown", Files.readString(root.resolve("report.txt")));
    // A file that appears where the user approved creating one is not what they approved either.
    JsonNode create = args("path", "fresh.txt", "content", "made by the call");
    String createToken = grant(trace, "files.write_text", create, 60).confirmToken();
    Files.writeString(root.resolve("fresh.txt"), "written meanwhile");
    refusedAndLogged("files.write_text", create, createToken, trace, ToolErrorCodes.TOKEN_MISMATCH);
    assertEquals("written meanwhile", Files.readString(root.resolve("fresh.txt")));
  }

  @Test
  void no_token_is_minted_for_a_file_changed_since_the_dialog_showed_it() throws Exception {
    Files.writeString(root.resolve("plan.txt"), "plan as shown");
    String trace = id();
    JsonNode write = args("path", "plan.txt", "content", "x");
    Preflight.Result shown = ui.preflight(trace, "files.write_text", write);
    assertEquals(1, shown.fingerprints().size(), String.valueOf(shown));
    // A grant of what the dialog showed, while nothing changed, is minted.
    assertTrue(grantAsShown(trace, write, shown).confirmToken().length() > 0);
    Thread.sleep(20); // past the clock tick that stamps a file's change time
    Files.writeString(root.resolve("plan.txt"), "plan changed");
    ClientException refused =
        assertThrows(ClientException.class, () -> grantAsShown(trace, write, shown));
    assertTrue(refused.getMessage().contains("show it again"), refused.getMessage());
    assertTrue(Grant.shownChanged(refused), "the window can tell it apart and show it again");
    String plan = root.toRealPath().resolve("plan.txt").toString();
    assertEquals(
        List.of(new Grant.Changed("files.write_text", plan, "written")),
        Grant.changes(refused),
        "and say it was written in place");
    // Another file moved into its name is a replacement, not a write.
    Preflight.Result again = ui.preflight(trace, "files.write_text", write);
    Files.writeString(root.resolve("other-plan.txt"), "another plan");
    Files.move(
        root.resolve("other-plan.txt"),
        root.resolve("plan.txt"),
        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    ClientException replaced =
        assertThrows(ClientException.class, () -> grantAsShown(trace, write, again));
    assertEquals(
        List.of(new Grant.Changed("files.write_text", plan, "replaced")), Grant.changes(replaced));
    assertTrue(
        replaced
            .getMessage()
            .contains(plan + " was replaced (another file or folder is there now)"),
        replaced.getMessage());
  }

  @Test
  void a_file_moved_into_a_folder_approved_for_deleting_is_a_mismatch() throws Exception {
    Files.createDirectories(root.resolve("proj/sub"));
    Files.writeString(root.resolve("proj/sub/a.txt"), "a");
    Files.writeString(root.resolve("precious.txt"), "keep");
    String trace = id();
    JsonNode delete = args("path", "proj", "recursive", true);
    String token = grant(trace, "files.delete", delete, 60).confirmToken();
    // Deep inside, where the folder's own entries do not change.
    Files.move(root.resolve("precious.txt"), root.resolve("proj/sub/precious.txt"));
    refusedAndLogged("files.delete", delete, token, trace, ToolErrorCodes.TOKEN_MISMATCH);
    assertEquals("keep", Files.readString(root.resolve("proj/sub/precious.txt")));
    Files.move(root.resolve("proj/sub/precious.txt"), root.resolve("precious.txt"));
  }

  @Test
  void calls_of_one_approval_that_make_or_free_each_others_paths_all_run() throws Exception {
    // One approval: a folder made below another the next call makes; a file moved away before
    // a new one is written in its place. Nothing the user saw is replaced by something unseen.
    Files.writeString(root.resolve("notes.md"), "old notes");
    Files.createDirectories(root.resolve("archive"));
    String trace = id();
    JsonNode deeper = args("path", "made/below");
    JsonNode made = args("path", "made");
    JsonNode away = args("from", "notes.md", "to", "archive/notes.md");
    JsonNode fresh = args("path", "notes.md", "content", "new notes");
    String token = ui.grant(new Grant.Params(
            trace,
            List.of(
                new Grant.Call("files.ensure_dir", deeper),
                new Grant.Call("files.ensure_dir", made),
                new Grant.Call("files.move", away),
                new Grant.Call("files.write_text", fresh)),
            null,
            null,
            60,
            null))
        .confirmToken();
    for (var call : List.of(
        Map.entry("files.ensure_dir", deeper),
        Map.entry("files.ensure_dir", made),
        Map.entry("files.move", away),
        Map.entry("files.write_text", fresh))) {
      ToolResult r = agent.execute(
          new Execute.Params(trace, id(), call.getKey(), call.getValue(), token, null));
      assertTrue(r.ok(), call + ": " + r.error());
    }
    assertEquals("old notes", Files.readString(root.resolve("archive/notes.md")));
    assertEquals("new notes", Files.readString(root.resolve("notes.md")));
  }

  @Test
  void a_write_checked_on_a_folder_may_not_replace_a_file_that_takes_its_place() throws Exception {
    Files.createDirectories(root.resolve("flip"));
    // Checked while a folder is there, the write is not approved to overwrite: a file moved in
    // before it runs is refused by the tool, not replaced.
    assertFalse(agent
        .preflight(id(), "files.write_text", args("path", "flip", "content", "x"))
        .destructive());
    Files.delete(root.resolve("flip"));
  }

  private Grant.Result grantAsShown(String trace, JsonNode args, Preflight.Result shown) {
    return ui.grant(new Grant.Params(
        trace,
        List.of(new Grant.Call("files.write_text", args, shown.paths(), shown.fingerprints())),
        null,
        null,
        60,
        null));
  }

  @Test
  void a_token_for_another_tool_is_a_mismatch() {
    String trace = id();
    String token =
        grant(trace, "files.ensure_dir", args("path", "existing.txt"), 60).confirmToken();
    refusedAndLogged(
        "files.write_text", overwrite("x"), token, trace, ToolErrorCodes.TOKEN_MISMATCH);
  }

  @Test
  void a_used_token_is_refused_the_second_time() throws Exception {
    String trace = id();
    String token = grant(trace, "files.write_text", overwrite("once"), 60).confirmToken();
    assertTrue(agent
        .execute(
            new Execute.Params(trace, id(), "files.write_text", overwrite("once"), token, null))
        .ok());
    refusedAndLogged(
        "files.write_text", overwrite("once"), token, trace, ToolErrorCodes.TOKEN_USED);
    Files.writeString(root.resolve("existing.txt"), "mine");
  }

  @Test
  void expiry_follows_the_clock_to_the_second() throws Exception {
    String trace = id();
    String token = grant(trace, "files.write_text", overwrite("late"), 30).confirmToken();
    t.clock.advance(Duration.ofSeconds(31));
    try {
      refusedAndLogged(
          "files.write_text", overwrite("late"), token, trace, ToolErrorCodes.TOKEN_EXPIRED);
    } finally {
      t.clock.advance(Duration.ofSeconds(-31));
    }
    String trace2 = id();
    String token2 = grant(trace2, "files.write_text", overwrite("in time"), 30).confirmToken();
    t.clock.advance(Duration.ofSeconds(29));
    try {
      assertTrue(agent
          .execute(new Execute.Params(
              trace2, id(), "files.write_text", overwrite("in time"), token2, null))
          .ok());
    } finally {
      t.clock.advance(Duration.ofSeconds(-29));
      Files.writeString(root.resolve("existing.txt"), "mine");
    }
  }

  @Test
  void a_revoked_token_is_invalid() {
    String trace = id();
    Grant.Result g = grant(trace, "files.write_text", overwrite("x"), 60);
    assertTrue(ui.call(
            Methods.CONFIRM_REVOKE, new Grant.RevokeParams(g.tokenId()), Grant.RevokeResult.class)
        .revoked());
    refusedAndLogged(
        "files.write_text", overwrite("x"), g.confirmToken(), trace, ToolErrorCodes.TOKEN_INVALID);
  }

  @Test
  void a_scoped_token_does_not_reach_outside_its_folder() throws Exception {
    Files.createDirectories(root.resolve("notes"));
    String trace = id();
    Grant.Result g = ui.grant(new Grant.Params(
        trace,
        null,
        List.of("files.write_text"),
        new Grant.Scope(List.of(root + "/notes")),
        60,
        true));
    refusedAndLogged(
        "files.write_text", overwrite("x"), g.confirmToken(), trace, ToolErrorCodes.TOKEN_MISMATCH);
  }

  @Test
  void fifty_concurrent_uses_of_one_token_run_exactly_once() throws Exception {
    String trace = id();
    JsonNode a = overwrite("raced");
    String token = grant(trace, "files.write_text", a, 60).confirmToken();
    List<StewardClient> clients = new ArrayList<>();
    for (int i = 0; i < 5; i++) clients.add(t.client(Role.AGENT));
    List<java.util.concurrent.CompletableFuture<ToolResult>> futures = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      futures.add(clients
          .get(i % 5)
          .executeAsync(new Execute.Params(trace, id(), "files.write_text", a, token, null)));
    }
    List<ToolResult> results = futures.stream().map(f -> agent.await(f)).toList();
    assertEquals(1, results.stream().filter(ToolResult::ok).count());
    assertEquals(
        49,
        results.stream()
            .filter(r -> !r.ok() && ToolErrorCodes.TOKEN_USED.equals(r.error().code()))
            .count());
    Files.writeString(root.resolve("existing.txt"), "mine");
  }

  // ---- names that look odd but are fine ------------------------------------------------------

  @Test
  void names_with_dots_and_unicode_normal_forms_stay_allowed() throws Exception {
    for (String name : List.of("..test", "...", "a..b", "caf\u00e9.txt", "cafe\u0301.txt")) {
      ToolResult r =
          TestService.exec(agent, "files.write_text", args("path", name, "content", name));
      assertTrue(r.ok(), name + ": " + r.error());
      assertEquals(name, Files.readString(root.resolve(name)));
    }
    assertTrue(
        Files.exists(root.resolve("caf\u00e9.txt")) && Files.exists(root.resolve("cafe\u0301.txt")),
        "NFC and NFD are two names");
  }

  @Test
  void a_folder_swapped_for_a_link_during_10000_writes_never_writes_outside() throws Exception {
    Path sub = root.resolve("swap");
    Path parked = root.resolve("swap-real");
    Files.createDirectories(sub);
    Map<String, String> outsideBefore = listing(t.outside);
    var stop = new java.util.concurrent.atomic.AtomicBoolean();
    Thread swapper = new Thread(() -> {
      while (!stop.get()) {
        try {
          Files.move(sub, parked);
          Files.createSymbolicLink(sub, t.outside);
          Thread.onSpinWait();
          Files.delete(sub);
          Files.move(parked, sub);
        } catch (Exception e) {
          // a write holds the folder for a moment; try again
        }
      }
    });
    swapper.start();
    int ok = 0;
    try {
      List<java.util.concurrent.CompletableFuture<ToolResult>> batch = new ArrayList<>();
      for (int i = 0; i < 10_000; i++) {
        batch.add(agent.executeAsync(new Execute.Params(
            id(),
            id(),
            "files.write_text",
            args("path", "swap/f" + (i % 50) + ".txt", "content", "v" + i),
            null,
            null)));
        if (batch.size() == 16) {
          for (var f : batch) if (agent.await(f).ok()) ok++;
          batch.clear();
        }
      }
      for (var f : batch) if (agent.await(f).ok()) ok++;
    } finally {
      stop.set(true);
      swapper.join();
    }
    assertEquals(outsideBefore, listing(t.outside), "nothing outside the root may change");
    assertTrue(ok > 0, "some writes landed in the real folder");
  }

  private static Map<String, String> listing(Path dir) throws Exception {
    try (var walk = Files.walk(dir)) {
      var out = new java.util.TreeMap<String, String>();
      walk.forEach(p -> {
        try {
          out.put(dir.relativize(p).toString(), Files.isDirectory(p) ? "dir" : Files.readString(p));
        } catch (Exception e) {
          out.put(dir.relativize(p).toString(), "?");
        }
      });
      return out;
    }
  }
}
