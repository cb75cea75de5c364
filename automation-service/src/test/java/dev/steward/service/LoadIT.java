package dev.steward.service;

import static dev.steward.service.TestService.args;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.method.Audit;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.tool.ToolResult;
import java.nio.file.Files;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** 8 connections × 5,000 calls: every call has exactly its two rows, and the chain verifies. */
class LoadIT {

  static final int CONNECTIONS = 8;
  static final int CALLS = 5000;
  static final int IN_FLIGHT = 8;

  @Test
  void no_audit_row_is_lost_or_duplicated_under_load() throws Exception {
    try (TestService t = TestService.start()) {
      Files.writeString(t.root.resolve("small.txt"), "x".repeat(1024));
      List<Thread> threads = new ArrayList<>();
      List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
      for (int c = 0; c < CONNECTIONS; c++) {
        int conn = c;
        StewardClient agent = t.client(Role.AGENT);
        threads.add(new Thread(() -> {
          try {
            ArrayDeque<CompletableFuture<ToolResult>> window = new ArrayDeque<>();
            for (int i = 0; i < CALLS; i++) {
              window.add(agent.executeAsync(new Execute.Params(
                  "load-" + conn,
                  "c" + conn + "-" + i,
                  "files.read_text",
                  args("path", "small.txt"),
                  null,
                  null)));
              if (window.size() >= IN_FLIGHT) check(agent.await(window.poll()));
            }
            while (!window.isEmpty()) check(agent.await(window.poll()));
          } catch (Throwable e) {
            failures.add(e);
          }
        }));
      }
      threads.forEach(Thread::start);
      for (Thread th : threads) th.join();
      assertEquals(List.of(), failures);

      StewardClient ui = t.client(Role.UI);
      Map<String, Integer> decisions = new HashMap<>();
      Map<String, Integer> completions = new HashMap<>();
      String cursor = null;
      do {
        Map<String, Object> q = new HashMap<>(Map.of("limit", 1000, "tool", "files.read_text"));
        if (cursor != null) q.put("cursor", cursor);
        Audit.QueryResult page = ui.call(Methods.AUDIT_QUERY, q, Audit.QueryResult.class);
        for (Audit.Row r : page.rows()) {
          (r.kind().equals("decision") ? decisions : completions)
              .merge(r.callId(), 1, Integer::sum);
        }
        cursor = page.nextCursor();
      } while (cursor != null);
      assertEquals(CONNECTIONS * CALLS, decisions.size());
      assertEquals(CONNECTIONS * CALLS, completions.size());
      assertTrue(decisions.values().stream().allMatch(n -> n == 1), "one decision row per call");
      assertTrue(
          completions.values().stream().allMatch(n -> n == 1), "one completion row per call");
      Audit.VerifyResult v = ui.call(Methods.AUDIT_VERIFY, null, Audit.VerifyResult.class);
      assertTrue(v.ok(), v.problem());
      assertEquals(2L * CONNECTIONS * CALLS, v.rowsChecked());
    }
  }

  private static void check(ToolResult r) {
    if (!r.ok()) throw new AssertionError("call failed: " + r.error());
  }
}
