package dev.steward.service.tools.files;

import static dev.steward.service.TestService.args;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.protocol.tool.ToolResult;
import dev.steward.service.TestService;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A pattern or glob built to make a backtracking engine take forever (issue 15, route 5) answers
 * with its matches and leaves no walking thread busy once the call has answered.
 */
class SearchLimitsIT {

  TestService t;
  StewardClient agent;

  @BeforeEach
  void start() throws Exception {
    t = TestService.start();
    agent = t.client(Role.AGENT);
    for (int i = 0; i < 20; i++)
      Files.writeString(
          t.root.resolve("f" + i + ".txt"), "a".repeat(30_000) + "\nsome line with an a\n");
    Files.writeString(t.root.resolve("a".repeat(200) + ".txt"), "x");
  }

  @AfterEach
  void stop() {
    t.close();
  }

  @Test
  void a_pattern_built_to_backtrack_is_answered_and_nothing_runs_on() {
    ToolResult r = TestService.exec(
        agent, "files.search", args("path", ".", "content", "(.*a){25}", "regex", true));
    assertTrue(r.ok(), String.valueOf(r.error()));
    assertEquals(20, r.value().path("files_matched").asInt());
    assertTrue(
        WalkPool.POOL.awaitQuiescence(5, TimeUnit.SECONDS), "no walking thread is still matching");
  }

  @Test
  void a_glob_of_hundreds_of_stars_is_answered_and_nothing_runs_on() {
    ToolResult r = TestService.exec(
        agent, "files.search", args("path", ".", "name_glob", "*a".repeat(300) + "b"));
    assertTrue(r.ok(), String.valueOf(r.error()));
    assertEquals(0, r.value().path("files_matched").asInt());
    assertTrue(WalkPool.POOL.awaitQuiescence(5, TimeUnit.SECONDS));
  }

  @Test
  void look_around_and_back_references_are_refused_clearly() {
    for (String pattern : new String[] {"(?=a)b", "(a)\\1", "(?<!x)y"}) {
      ToolResult r = TestService.exec(
          agent, "files.search", args("path", ".", "content", pattern, "regex", true));
      assertEquals(ToolErrorCodes.VALIDATION_ERROR, r.error().code(), pattern);
      assertTrue(
          r.error().message().contains("no look-around, no back-references"),
          r.error().message());
      assertEquals("/content", r.error().field());
    }
  }
}
