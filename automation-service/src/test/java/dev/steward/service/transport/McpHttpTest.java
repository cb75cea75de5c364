package dev.steward.service.transport;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Which bodies ask the endpoint for a new session, read as the SDK reads them. */
class McpHttpTest {

  private static boolean opens(String body) {
    return McpHttp.opensSession(
        new String(body.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8));
  }

  @Test
  void anInitializeOpensASessionHoweverItsMethodIsSpelled() {
    assertTrue(opens("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}"));
    assertTrue(opens("{\"params\":{\"method\":\"x\"},\"method\":\"initi\\u0061lize\"}"));
    assertTrue(opens("[{\"method\":\"ping\"},[1,{}],\"x\",{\"method\":\"initialize\"}]"));
  }

  @Test
  void aCallThatOnlyMentionsInitializeOpensNone() {
    assertFalse(opens("{\"method\":\"tools/call\",\"params\":{\"name\":\"files.write_text\","
        + "\"arguments\":{\"method\":\"initialize\",\"content\":\"\\\"initialize\\\"\"}}}"));
    assertFalse(opens("{\"method\":{\"initialize\":1}}"));
    assertFalse(opens(""));
  }

  @Test
  void aBodyThatCannotBeReadToItsEndIsCountedAsOpeningOne() {
    assertTrue(opens("not json \"method\":\"initialize\""));
    assertTrue(opens("{\"method\":\"initialize\",\"x\":\"unclosed"));
    // Bytes that are not UTF-8, as the SDK reads them (replaced), after the method.
    byte[] bad =
        "{\"method\":\"initialize\",\"x\":\"\u00c3(\"}".getBytes(StandardCharsets.ISO_8859_1);
    assertTrue(McpHttp.opensSession(new String(bad, StandardCharsets.UTF_8)));
  }
}
