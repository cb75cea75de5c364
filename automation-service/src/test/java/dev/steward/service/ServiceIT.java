package dev.steward.service;

import static dev.steward.service.TestService.args;
import static dev.steward.service.TestService.exec;
import static dev.steward.service.TestService.id;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.protocol.client.ClientException;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.jsonrpc.ErrorCodes;
import dev.steward.protocol.method.Audit;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Grant;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.Preflight;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.protocol.tool.ToolResult;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The service end to end over a real WebSocket and a real H2 file. */
class ServiceIT {

  TestService t;
  StewardClient ui;
  StewardClient agent;

  @BeforeEach
  void start() {
    t = TestService.start();
    ui = t.client(Role.UI);
    agent = t.client(Role.AGENT);
  }

  @AfterEach
  void stop() {
    t.close();
  }

  @Test
  void hello_names_the_role_the_secret_belongs_to() {
    assertEquals(Role.UI, ui.hello().role());
    assertEquals(Role.AGENT, agent.hello().role());
    assertEquals(1 << 20, agent.hello().limits().maxFrameBytes());
  }

  @Test
  void tools_list_has_the_file_tools_with_their_contract() {
    var tools = agent.tools();
    var names = tools.stream().map(d -> d.name()).toList();
    assertTrue(
        names.containsAll(
            List.of("files.list_dir", "files.read_text", "files.write_text", "files.ensure_dir")),
        names.toString());
    var write = tools.stream()
        .filter(d -> d.name().equals("files.write_text"))
        .findFirst()
        .orElseThrow();
    assertEquals("medium", write.risk().wire());
    assertEquals("if_destructive", write.confirmation().wire());
    assertEquals("object", write.argsSchema().get("type").asText());
  }

  @Test
  void writing_a_new_file_runs_without_a_token_and_is_audited_twice() throws Exception {
    String trace = id();
    String call = id();
    ToolResult r = agent.execute(new Execute.Params(
        trace,
        call,
        "files.write_text",
        args("path", t.root + "/a.txt", "content", "hello"),
        null,
        null));
    assertTrue(r.ok(), String.valueOf(r.error()));
    assertEquals(5, r.value().get("size").asInt());
    assertFalse(r.value().get("overwritten").asBoolean());
    assertEquals("hello", Files.readString(t.root.resolve("a.txt")));
    List<Audit.Row> rows = t.rows(ui, call);
    assertEquals(
        List.of("decision", "completion"), rows.stream().map(Audit.Row::kind).toList());
    assertEquals("allowed", rows.get(0).decision());
    assertEquals("ok", rows.get(1).result());
    assertEquals(r.audit().auditId(), rows.get(0).auditId());
    assertEquals(
        rows.get(1).summary(),
        r.audit().summary(),
        "the answer carries the completion row's summary");
    org.junit.jupiter.api.Assertions.assertNotNull(r.audit().summary());
    assertFalse(
        rows.get(0).argsPreview().contains("hello"), "file content must not appear in the log");
    assertTrue(rows.get(0).argsPreview().contains("5 bytes sha256:"));
  }

  @Test
  void overwriting_needs_a_token_that_only_the_ui_can_mint() throws Exception {
    Files.writeString(t.root.resolve("b.txt"), "old");
    String trace = id();
    var a = args("path", "b.txt", "content", "new");
    Preflight.Result pre = agent.preflight(trace, "files.write_text", a);
    assertEquals("confirm", pre.decision());
    assertTrue(pre.destructive());
    assertEquals(List.of(t.root.resolve("b.txt").toString()), pre.paths());

    ToolResult refused = exec(agent, trace, "files.write_text", a, null);
    assertEquals(ToolErrorCodes.TOKEN_MISSING, refused.error().code());
    assertEquals("old", Files.readString(t.root.resolve("b.txt")));

    ClientException forbidden = assertThrows(
        ClientException.class,
        () -> agent.grant(new Grant.Params(
            trace, List.of(new Grant.Call("files.write_text", a)), null, null, null, null)));
    assertEquals(ErrorCodes.FORBIDDEN, forbidden.rpcError().code());

    Grant.Result g = ui.grant(new Grant.Params(
        trace, List.of(new Grant.Call("files.write_text", a)), null, null, 60, null));
    ToolResult ran = exec(agent, trace, "files.write_text", a, g.confirmToken());
    assertTrue(ran.ok(), String.valueOf(ran.error()));
    assertTrue(ran.value().get("overwritten").asBoolean());
    assertEquals("confirmed", ran.audit().decision());
    assertEquals("new", Files.readString(t.root.resolve("b.txt")));

    ToolResult again = exec(agent, trace, "files.write_text", a, g.confirmToken());
    assertEquals(ToolErrorCodes.TOKEN_USED, again.error().code());
  }

  @Test
  void read_list_and_ensure_dir_work_inside_the_roots() throws Exception {
    // Folders first: reading the read-only root taints this connection, and later changes would
    // ask.
    ToolResult made = exec(agent, "files.ensure_dir", args("path", "x/y/z"));
    assertTrue(made.value().get("created").asBoolean());
    assertTrue(Files.isDirectory(t.root.resolve("x/y/z")));
    assertFalse(exec(agent, "files.ensure_dir", args("path", "x/y/z"))
        .value()
        .get("created")
        .asBoolean());

    Files.writeString(t.ro.resolve("notes.txt"), "one\ntwo\nthree\n");
    ToolResult read = exec(
        agent,
        "files.read_text",
        args("path", t.ro + "/notes.txt", "start_line", 2, "end_line", 2));
    assertTrue(read.ok(), String.valueOf(read.error()));
    assertEquals("two\n", read.value().get("content").asText());

    ToolResult list =
        exec(agent, "files.list_dir", args("path", t.root.toString(), "recursive", true));
    var paths = list.value().get("entries").findValuesAsText("path");
    assertEquals(List.of(t.root + "/x", t.root + "/x/y", t.root + "/x/y/z"), paths);
  }

  @Test
  void a_bad_argument_names_the_field_as_a_json_pointer() {
    ToolResult r = exec(agent, "files.read_text", args("path", "a.txt", "max_bytes", -1));
    assertEquals(ToolErrorCodes.VALIDATION_ERROR, r.error().code());
    assertEquals("/max_bytes", r.error().field());
    ToolResult missing = exec(agent, "files.write_text", args("path", "a.txt"));
    assertEquals("/content", missing.error().field());
    ToolResult extra = exec(agent, "files.read_text", args("path", "a.txt", "sneaky", true));
    assertEquals("/sneaky", extra.error().field());
  }

  @Test
  void a_retry_with_the_same_idempotency_key_runs_nothing_again() throws Exception {
    var p = new Execute.Params(
        id(), id(), "files.write_text", args("path", "idem.txt", "content", "1"), null, "key-1");
    ToolResult first = agent.execute(p);
    Files.delete(t.root.resolve("idem.txt"));
    ToolResult second = agent.execute(p);
    assertEquals(first, second);
    assertFalse(Files.exists(t.root.resolve("idem.txt")), "the retry must not write again");
    var other = new Execute.Params(
        id(), id(), "files.write_text", args("path", "idem.txt", "content", "2"), null, "key-1");
    assertEquals("/idempotency_key", agent.execute(other).error().field());
  }

  /**
   * A row's preview is cut; what the call was given is not hidden by it: the window reads the whole
   * back, checked against the hash the chained preview ends with.
   */
  @Test
  void the_whole_arguments_of_a_cut_row_are_read_back_by_the_window_alone() throws Exception {
    String path = "w/" + "x".repeat(150) + "/" + "y".repeat(150) + "/the-end";
    String trace = id();
    assertTrue(agent
        .execute(
            new Execute.Params(trace, id(), "files.ensure_dir", args("path", path), null, null))
        .ok());
    Audit.Row row = decisionRow(trace);
    assertFalse(row.argsPreview().contains("the-end"), row.argsPreview());
    String hash = dev.steward.protocol.audit.WholeArgs.hashIn(row.argsPreview());
    assertNotNull(hash, row.argsPreview());
    Audit.ArgsResult whole =
        ui.call(Methods.AUDIT_ARGS, new Audit.ArgsParams(hash), Audit.ArgsResult.class);
    assertEquals(args("path", path), Json.parse(whole.args()));

    ClientException agentAsks = assertThrows(
        ClientException.class,
        () -> agent.call(Methods.AUDIT_ARGS, new Audit.ArgsParams(hash), Audit.ArgsResult.class));
    assertEquals(ErrorCodes.FORBIDDEN, agentAsks.rpcError().code());
    ClientException notAHash = assertThrows(
        ClientException.class,
        () -> ui.call(
            Methods.AUDIT_ARGS,
            new Audit.ArgsParams("../config/ui.secret"),
            Audit.ArgsResult.class));
    assertEquals(ErrorCodes.INVALID_PARAMS, notAHash.rpcError().code());

    java.nio.file.Path kept = t.home.data().resolve("audit-args").resolve(hash);
    Files.writeString(kept, whole.args().replace("the-end", "the-fun"));
    ClientException changed = assertThrows(
        ClientException.class,
        () -> ui.call(Methods.AUDIT_ARGS, new Audit.ArgsParams(hash), Audit.ArgsResult.class));
    assertEquals(ErrorCodes.UNAVAILABLE, changed.rpcError().code());
    assertTrue(changed.getMessage().contains("changed after"), changed.getMessage());
    Audit.VerifyResult verified =
        ui.call(Methods.AUDIT_VERIFY, Json.object(), Audit.VerifyResult.class);
    assertFalse(verified.ok());
    assertEquals(row.auditId(), verified.firstBadRow());
    assertTrue(verified.problem().contains("whole arguments"), verified.problem());
  }

  /** A path that reaches another file through a link: the row names the file reached. */
  @Test
  void a_row_names_the_place_a_link_led_the_call_to() throws Exception {
    java.nio.file.Path drafts = Files.createDirectories(t.root.resolve("drafts"));
    Files.writeString(drafts.resolve("ch1.md"), "chapter one");
    java.nio.file.Path scratch = Files.createDirectories(t.root.resolve("scratch"));
    Files.createSymbolicLink(scratch.resolve("notes.md"), drafts.resolve("ch1.md"));
    String trace = id();
    assertTrue(agent
        .execute(new Execute.Params(
            trace, id(), "files.read_text", args("path", t.root + "/scratch/notes.md"), null, null))
        .ok());
    Audit.Row row = decisionRow(trace);
    assertTrue(
        String.valueOf(row.reason())
            .contains("reaches “" + drafts.resolve("ch1.md").toRealPath() + "” through a link"),
        row.reason());
  }

  /** The decision row of the call traced {@code trace}. */
  private Audit.Row decisionRow(String trace) {
    return ui
        .call(
            Methods.AUDIT_QUERY,
            new Audit.QueryParams(null, null, null, trace, null, null, null, 10, null),
            Audit.QueryResult.class)
        .rows()
        .stream()
        .filter(r -> r.kind().equals("decision"))
        .findFirst()
        .orElseThrow();
  }

  /** A refusal costs a client nothing to send: its cut arguments are bound by their hash alone. */
  @Test
  void a_refused_call_keeps_no_whole_and_says_so() throws Exception {
    String trace = id();
    String path = t.outside + "/" + "z".repeat(300);
    assertFalse(agent
        .execute(
            new Execute.Params(trace, id(), "files.ensure_dir", args("path", path), null, null))
        .ok());
    Audit.Row row = ui.call(
            Methods.AUDIT_QUERY,
            new Audit.QueryParams(null, null, null, trace, null, null, null, 10, null),
            Audit.QueryResult.class)
        .rows()
        .get(0);
    assertEquals("blocked", row.decision());
    assertTrue(row.argsPreview().contains("[whole not kept: "), row.argsPreview());
    assertNull(dev.steward.protocol.audit.WholeArgs.named(row.kind(), row.argsPreview()));
    assertFalse(Files.exists(t.home.data().resolve("audit-args")));
  }

  @Test
  void ui_connections_hear_tool_results() throws Exception {
    List<String> heard = new CopyOnWriteArrayList<>();
    ui.onNotification(n -> {
      if (n.method().equals(Methods.TOOL_RESULTS))
        heard.add(n.params().get("call_id").asText());
    });
    String call = id();
    agent.execute(
        new Execute.Params(id(), call, "files.ensure_dir", args("path", "n"), null, null));
    for (int i = 0; i < 100 && heard.isEmpty(); i++) Thread.sleep(20);
    assertEquals(List.of(call), heard);
  }

  /** A listing's entries are written once, as bytes; a retry and the window's copy must still get them whole. */
  @Test
  void a_listing_goes_whole_to_a_retry_and_to_the_window() throws Exception {
    Files.createDirectories(t.root.resolve("l/m"));
    Files.writeString(t.root.resolve("l/m/n é.txt"), "n");
    List<com.fasterxml.jackson.databind.JsonNode> heard = new CopyOnWriteArrayList<>();
    ui.onNotification(n -> {
      if (n.method().equals(Methods.TOOL_RESULTS)) heard.add(n.params());
    });
    var p = new Execute.Params(
        id(), id(), "files.list_dir", args("path", "l", "recursive", true), null, "list-key");
    ToolResult first = agent.execute(p);
    assertEquals(
        List.of(t.root + "/l/m", t.root + "/l/m/n é.txt"),
        first.value().get("entries").findValuesAsText("path"));
    assertEquals(first, agent.execute(p));
    for (int i = 0; i < 100 && heard.isEmpty(); i++) Thread.sleep(20);
    assertEquals(p.callId(), heard.get(0).get("call_id").asText());
    assertEquals(first.value(), heard.get(0).at("/result/value"));
  }

  @Test
  void a_batch_is_answered_in_one_frame_in_order() {
    var responses = agent.await(agent.batch(List.of(
        new StewardClient.BatchCall(Methods.SESSION_HELLO, Map.of("client", "x", "version", "1")),
        new StewardClient.BatchCall("no.such.method", null),
        new StewardClient.BatchCall(Methods.TOOLS_LIST, null))));
    assertEquals(3, responses.size());
    assertNotNull(responses.get(0).result());
    assertEquals(ErrorCodes.METHOD_NOT_FOUND, responses.get(1).error().code());
    assertTrue(responses.get(2).result().get("tools").isArray());
  }

  @Test
  void audit_verify_passes_and_policy_round_trips() {
    exec(agent, "files.ensure_dir", args("path", "v"));
    Audit.VerifyResult v = ui.call(Methods.AUDIT_VERIFY, null, Audit.VerifyResult.class);
    assertTrue(v.ok(), String.valueOf(v.problem()));
    assertTrue(v.rowsChecked() >= 2);
    var policy = ui.call(Methods.POLICY_GET, null, com.fasterxml.jackson.databind.JsonNode.class);
    assertEquals(t.root.toString(), policy.at("/paths/0/root").asText());
    ClientException agentAsks = assertThrows(
        ClientException.class,
        () -> agent.call(Methods.AUDIT_QUERY, null, Audit.QueryResult.class));
    assertEquals(ErrorCodes.FORBIDDEN, agentAsks.rpcError().code());
    var bad = Json.object();
    bad.putArray("pathz");
    ClientException typo = assertThrows(
        ClientException.class, () -> ui.call(Methods.POLICY_UPDATE, bad, Object.class));
    assertTrue(typo.getMessage().contains("\"pathz\""), typo.getMessage());
  }
}
