package dev.steward.service.token;

import static dev.steward.service.TestService.args;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Grant;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.TestService;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Tokens survive a service restart while unexpired; a used one stays used. */
class TokenRestartIT {

  TestService t;

  @BeforeEach
  void start() throws Exception {
    t = TestService.start();
    Files.writeString(t.root.resolve("f.txt"), "old");
  }

  @AfterEach
  void stop() {
    t.close();
  }

  private String grant(String trace, JsonNode a) {
    return t.client(Role.UI)
        .grant(new Grant.Params(
            trace, List.of(new Grant.Call("files.write_text", a)), null, null, 120, null))
        .confirmToken();
  }

  @Test
  void an_unused_token_works_after_a_restart() throws Exception {
    String trace = TestService.id();
    JsonNode a = args("path", "f.txt", "content", "new");
    String token = grant(trace, a);
    t.restart();
    var r = t.client(Role.AGENT)
        .execute(new Execute.Params(trace, TestService.id(), "files.write_text", a, token, null));
    assertTrue(r.ok(), String.valueOf(r.error()));
    assertEquals("new", Files.readString(t.root.resolve("f.txt")));
  }

  @Test
  void a_used_token_stays_used_after_a_restart() throws Exception {
    String trace = TestService.id();
    JsonNode a = args("path", "f.txt", "content", "new");
    String token = grant(trace, a);
    assertTrue(t.client(Role.AGENT)
        .execute(new Execute.Params(trace, TestService.id(), "files.write_text", a, token, null))
        .ok());
    t.restart();
    Files.writeString(t.root.resolve("f.txt"), "old");
    var r = t.client(Role.AGENT)
        .execute(new Execute.Params(trace, TestService.id(), "files.write_text", a, token, null));
    assertEquals(ToolErrorCodes.TOKEN_USED, r.error().code());
    assertEquals("old", Files.readString(t.root.resolve("f.txt")));
  }
}
