package dev.steward.service;

import static dev.steward.service.TestService.args;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Audit;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.tool.ToolResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The service as its own process, started by {@code ./steward service}: basic use, and SIGKILL. */
class ServiceProcessIT {

  @TempDir
  Path tmp;

  private Path prepare(boolean grantWrites) throws Exception {
    Path home = tmp.resolve("home");
    Path root = tmp.resolve("root");
    Files.createDirectories(root);
    Files.createDirectories(home.resolve("config"));
    PolicyDocument doc = new PolicyDocument(
        List.of(new PolicyDocument.PathRoot(root.toString(), "read_write")),
        List.of(),
        new PolicyDocument.Hosts(List.of(), false),
        grantWrites
            ? List.of(new PolicyDocument.StandingGrant(
                "g1", "files.write_text", List.of(root.toString()), null, null))
            : List.of(),
        Map.of(),
        List.of());
    Files.writeString(home.resolve("config/policy.json"), Json.write(doc));
    return root;
  }

  @Test
  void started_by_the_launcher_it_answers_and_cleans_up_on_exit() throws Exception {
    Path root = prepare(false);
    Path home = tmp.resolve("home");
    try (ServiceProcess service = ServiceProcess.start(home, tmp)) {
      try (StewardClient agent = service.client(Role.AGENT)) {
        assertEquals(Role.AGENT, agent.hello().role());
        ToolResult r = TestService.exec(
            agent, "files.write_text", args("path", "p.txt", "content", "from a process"));
        assertTrue(r.ok(), String.valueOf(r.error()));
        assertEquals("from a process", Files.readString(root.resolve("p.txt")));
      }
      assertEquals(
          "rw-------",
          PosixFilePermissions.toString(
              Files.getPosixFilePermissions(home.resolve("config/ui.secret"))));
      assertEquals(
          "rw-------",
          PosixFilePermissions.toString(
              Files.getPosixFilePermissions(home.resolve("config/agent.secret"))));
      service.close();
      assertFalse(
          Files.exists(home.resolve("run/service.json")),
          "service.json is removed on a clean exit");
    }
  }

  @Test
  void sigkill_during_2000_writes_loses_no_acknowledged_call() throws Exception {
    Path root = prepare(true);
    Path home = tmp.resolve("home");
    Map<String, String> acknowledged = new ConcurrentHashMap<>(); // call id → file
    Map<String, String> writtenContent = new ConcurrentHashMap<>(); // content → call id
    int killAfter = 300 + new Random().nextInt(1400);
    AtomicInteger issued = new AtomicInteger();
    try (ServiceProcess service = ServiceProcess.start(home, tmp)) {
      List<Thread> writers = new ArrayList<>();
      for (int w = 0; w < 4; w++) {
        StewardClient agent = service.client(Role.AGENT);
        writers.add(new Thread(() -> {
          try {
            while (true) {
              int n = issued.incrementAndGet();
              if (n > 2000) return;
              String call = "call-" + n;
              String file = "f" + (n % 40) + ".txt";
              String content =
                  "BEGIN " + n + "\n" + "x".repeat(2000 + n % 500) + "\nEND " + n + "\n";
              ToolResult r = agent.execute(new Execute.Params(
                  "trace-" + n,
                  call,
                  "files.write_text",
                  args("path", file, "content", content),
                  null,
                  null));
              if (r.ok()) {
                acknowledged.put(call, file);
                writtenContent.put(content, call);
              }
              if (acknowledged.size() >= killAfter && service.process.isAlive()) service.kill();
            }
          } catch (RuntimeException | InterruptedException e) {
            // the service is gone: calls fail from here on, which is the point
          } finally {
            agent.close();
          }
        }));
      }
      writers.forEach(Thread::start);
      for (Thread t : writers) t.join();
      assertFalse(service.process.isAlive(), "the service was killed mid-run");
    }
    assertTrue(acknowledged.size() >= killAfter, "acknowledged " + acknowledged.size());

    try (ServiceProcess again = ServiceProcess.start(home, tmp);
        StewardClient ui = again.client(Role.UI)) {
      Audit.VerifyResult v = ui.call(Methods.AUDIT_VERIFY, null, Audit.VerifyResult.class);
      assertTrue(v.ok(), "chain: " + v.problem());
      Map<String, List<String>> kinds = new HashMap<>();
      forEachRow(ui, Map.of(), r -> {
        if (r.callId() != null)
          kinds.computeIfAbsent(r.callId(), k -> new ArrayList<>()).add(r.kind());
      });
      for (String call : acknowledged.keySet()) {
        List<String> k = kinds.getOrDefault(call, List.of());
        assertTrue(k.contains("decision") && k.contains("completion"), call + " has rows " + k);
      }
    }
    for (int i = 0; i < 40; i++) {
      Path f = root.resolve("f" + i + ".txt");
      if (!Files.exists(f)) continue;
      String content = Files.readString(f);
      assertTrue(
          content.matches("(?s)BEGIN (\\d+)\nx+\nEND \\1\n"),
          "f" + i + " holds one complete version");
      int n = Integer.parseInt(content.substring(6, content.indexOf('\n')));
      assertEquals(
          2000 + n % 500,
          content.length() - ("BEGIN " + n + "\n\nEND " + n + "\n").length(),
          "complete length");
    }
  }

  @Test
  void sigkill_after_the_journal_has_rotated_loses_no_acknowledged_call() throws Exception {
    Path root = prepare(false);
    Path home = tmp.resolve("home");
    Files.writeString(root.resolve("small.txt"), "small");
    // Two rows a call: past ~10,000 calls the loader has checkpointed 20,000 rows and the journal
    // is rotated (kept rows copied by byte offset); the kill comes some thousands of calls later.
    int killAfter = 13_000 + new Random().nextInt(3000);
    Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    AtomicInteger issued = new AtomicInteger();
    try (ServiceProcess service = ServiceProcess.start(home, tmp)) {
      List<Thread> readers = new ArrayList<>();
      for (int w = 0; w < 4; w++) {
        StewardClient agent = service.client(Role.AGENT);
        readers.add(new Thread(() -> {
          try {
            while (service.process.isAlive()) {
              String call = "read-" + issued.incrementAndGet();
              ToolResult r = agent.execute(new Execute.Params(
                  "rotation", call, "files.read_text", args("path", "small.txt"), null, null));
              if (r.ok()) acknowledged.add(call);
              if (acknowledged.size() >= killAfter && service.process.isAlive()) service.kill();
            }
          } catch (RuntimeException | InterruptedException e) {
            // the service is gone
          } finally {
            agent.close();
          }
        }));
      }
      readers.forEach(Thread::start);
      for (Thread t : readers) t.join();
    }
    String head = Files.readAllLines(home.resolve("data/audit.journal")).get(0);
    assertTrue(
        Json.parse(head).get("seq").asLong() > 0,
        "the journal was rotated before the kill: " + head);

    try (ServiceProcess again = ServiceProcess.start(home, tmp);
        StewardClient ui = again.client(Role.UI)) {
      Audit.VerifyResult v = ui.call(Methods.AUDIT_VERIFY, null, Audit.VerifyResult.class);
      assertTrue(v.ok(), "chain: " + v.problem());
      Map<String, Integer> rows = new HashMap<>();
      forEachRow(ui, Map.of("trace_id", "rotation"), r -> rows.merge(r.callId(), 1, Integer::sum));
      for (String call : acknowledged)
        assertEquals(2, rows.getOrDefault(call, 0), call + " has both rows");
    }
  }

  /** Every audit row that matches {@code filter}, page by page. */
  private static void forEachRow(
      StewardClient ui, Map<String, Object> filter, java.util.function.Consumer<Audit.Row> each) {
    String cursor = null;
    do {
      Map<String, Object> q = new HashMap<>(filter);
      q.put("limit", 1000);
      if (cursor != null) q.put("cursor", cursor);
      Audit.QueryResult page = ui.call(Methods.AUDIT_QUERY, q, Audit.QueryResult.class);
      page.rows().forEach(each);
      cursor = page.nextCursor();
    } while (cursor != null);
  }
}
