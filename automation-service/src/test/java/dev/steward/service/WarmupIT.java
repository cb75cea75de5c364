package dev.steward.service;

import static dev.steward.service.TestService.args;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.Role;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The idle warm-up in a real service (issue 23): a client's calls answer while it runs, it works on
 * a tree of its own under Steward's data folder, kept between starts, and leaves no audit row.
 */
class WarmupIT {

  @Test
  void warms_up_on_its_own_tree_beside_a_clients_calls_and_leaves_no_row() throws Exception {
    try (TestService t = TestService.startWarmingUp(3)) {
      Files.writeString(t.root.resolve("note.txt"), "a note");
      StewardClient agent = t.client(Role.AGENT);
      // A client's call while the warm-up runs: answered, and its answer is the user's folder.
      for (int i = 0; i < 5; i++) {
        JsonNode r = agent.call(
            Methods.TOOL_EXECUTE,
            new Execute.Params(
                "warm-it", "c" + i, "files.list_dir", args("path", t.root.toString()), null, null),
            JsonNode.class);
        assertTrue(r.path("ok").asBoolean(), r.toString());
        assertEquals("note.txt", r.at("/value/entries/0/name").asText(), r.toString());
      }
      int ran = t.service().warmedUp().get(120, TimeUnit.SECONDS);
      assertEquals(
          3 * 8, ran, "each of the files pack's 8 warm-up calls ran in each of the 3 rounds");
      Path tree = t.home.data().resolve("warmup/files/tree-2");
      assertTrue(Files.exists(tree.resolve(".complete")));

      // Only the client's calls are in the log: a decision and a completion for each.
      JsonNode rows = t.client(Role.UI)
          .call(
              Methods.AUDIT_QUERY,
              dev.steward.protocol.json.Json.object().put("limit", 100),
              JsonNode.class)
          .get("rows");
      assertEquals(10, rows.size(), rows.toString());
      for (JsonNode row : rows)
        assertEquals("warm-it", row.get("trace_id").asText(), row.toString());

      // The tree is made once and kept: a later start finds it whole and warms up on it again.
      FileTime made = Files.getLastModifiedTime(tree.resolve(".complete"));
      t.restart();
      assertTrue(t.service().warmedUp().get(120, TimeUnit.SECONDS) > 0);
      assertEquals(made, Files.getLastModifiedTime(tree.resolve(".complete")));
    }
  }
}
