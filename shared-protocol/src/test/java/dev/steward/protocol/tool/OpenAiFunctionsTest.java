package dev.steward.protocol.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.steward.protocol.json.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

class OpenAiFunctionsTest {

  @Test
  void renders_a_function_with_a_reversible_name_and_the_schema_as_parameters() throws Exception {
    var schema = Json.parse(
        "{\"$schema\":\"x\",\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}}}");
    var def = new ToolDefinition(
        "files.read_text",
        "Read",
        schema,
        Json.object(),
        Risk.LOW,
        Confirmation.NEVER,
        List.of(ScopeKind.PATHS));
    var fn = OpenAiFunctions.render(def);
    assertEquals("function", fn.get("type").asText());
    assertEquals("files__read_text", fn.at("/function/name").asText());
    assertEquals("object", fn.at("/function/parameters/type").asText());
    assertFalse(fn.at("/function/parameters").has("$schema"));
    assertEquals(
        "files.read_text", OpenAiFunctions.toolName(fn.at("/function/name").asText()));
  }

  @Test
  void tool_names_that_would_not_round_trip_are_refused() {
    assertThrows(
        IllegalArgumentException.class,
        () -> new ToolDefinition(
            "files.a__b",
            "x",
            Json.object(),
            Json.object(),
            Risk.LOW,
            Confirmation.NEVER,
            List.of()));
    assertThrows(
        IllegalArgumentException.class,
        () -> new ToolDefinition(
            "Files.Read",
            "x",
            Json.object(),
            Json.object(),
            Risk.LOW,
            Confirmation.NEVER,
            List.of()));
  }
}
