package dev.steward.service.tools;

import static dev.steward.service.TestService.args;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.tool.ToolResult;
import dev.steward.service.TestService;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** A long search reports progress to the connection that asked for it. */
class SearchProgressIT {

  @Test
  void a_search_over_many_files_sends_tool_progress() throws Exception {
    try (TestService t = TestService.start()) {
      for (int d = 0; d < 10; d++) {
        Path dir = Files.createDirectories(t.root.resolve("d" + d));
        for (int f = 0; f < 500; f++)
          Files.writeString(dir.resolve("f" + f + ".txt"), "line " + f + "\n");
      }
      StewardClient agent = t.client(Role.AGENT);
      List<String> progress = new CopyOnWriteArrayList<>();
      agent.onNotification(n -> {
        if (n.method().equals(Methods.TOOL_PROGRESS)
            && n.params().get("call_id").asText().equals("long-search")) {
          progress.add(n.params().get("message").asText());
        }
      });
      ToolResult r = agent.execute(new Execute.Params(
          "t", "long-search", "files.search", args("path", ".", "content", "line 7"), null, null));
      assertTrue(r.ok(), String.valueOf(r.error()));
      assertEquals(
          110,
          r.value()
              .get("files_matched")
              .asInt()); // "line 7", "line 70".."line 79" in each of 10 folders
      for (int i = 0; i < 50 && progress.size() < 2; i++) Thread.sleep(20);
      // Every 2,000 files, in order: the walk's threads reach their counts at once, and a count
      // already passed is not reported after a higher one.
      assertFalse(progress.isEmpty(), "no progress");
      Pattern report = Pattern.compile("searched (\\d+) files, \\d+ matches so far");
      List<Integer> counts = new ArrayList<>();
      for (String p : progress) {
        Matcher m = report.matcher(p);
        assertTrue(m.matches(), p);
        counts.add(Integer.parseInt(m.group(1)));
      }
      assertEquals(
          counts.stream().sorted().distinct().toList(), counts, "out of order: " + progress);
      assertTrue(counts.stream().allMatch(c -> c % 2000 == 0 && c <= 5000), counts.toString());
    }
  }

  @Test
  void a_running_search_is_cancelled_by_tool_cancel() throws Exception {
    try (TestService t = TestService.start()) {
      for (int d = 0; d < 40; d++) {
        Path dir = Files.createDirectories(t.root.resolve("d" + d));
        for (int f = 0; f < 500; f++)
          Files.writeString(dir.resolve("f" + f + ".txt"), ("word " + f + "\n").repeat(200));
      }
      StewardClient agent = t.client(Role.AGENT);
      // The same connection: a call in progress must not keep its connection from reading the
      // cancel.
      StewardClient other = agent;
      java.util.concurrent.CompletableFuture<Boolean> cancelled =
          new java.util.concurrent.CompletableFuture<>();
      agent.onNotification(n -> {
        if (n.method().equals(Methods.TOOL_PROGRESS) && !cancelled.isDone()) {
          other
              .call(Methods.TOOL_CANCEL, new Execute.CancelParams("to-cancel"))
              .thenAccept(v -> cancelled.complete(v.get("cancelled").asBoolean()));
        }
      });
      ToolResult r = agent.execute(new Execute.Params(
          "t",
          "to-cancel",
          "files.search",
          args("path", ".", "content", "no such text", "regex", true),
          null,
          null));
      assertTrue(
          cancelled.get(10, java.util.concurrent.TimeUnit.SECONDS),
          "tool.cancel found the running call");
      assertEquals("CANCELLED", r.error().code(), String.valueOf(r.value()));
      assertTrue(
          t.rows(t.client(Role.UI), "to-cancel").stream()
              .anyMatch(row -> "CANCELLED".equals(row.errorCode())),
          "the cancellation is in the log");
    }
  }
}
