package dev.steward.service.gate;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.scope.HostResolver;
import dev.steward.service.tools.PackContext;
import dev.steward.service.tools.Tool;
import dev.steward.service.tools.ToolPacks;
import dev.steward.service.tools.ToolRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Any arguments, against every tool's schema: the check answers a VALIDATION_ERROR naming a
 * field, or lets them through — it never throws anything else (a model's arguments are hostile
 * input).
 */
class SchemaPropertiesTest {

  private static final ToolRegistry TOOLS = ToolPacks.registry(
      ToolPacks.load(),
      new PackContext(
          () -> {
            throw new IllegalStateException("no policy here");
          },
          Path.of("/nonexistent"),
          Path.of("/nonexistent"),
          Map.of(),
          HostResolver.system()));
  private static final SchemaCheck CHECK = new SchemaCheck(TOOLS);
  private static final List<Tool> ALL = List.copyOf(TOOLS.all());

  static void checkNeverThrows(Tool tool, String text) {
    JsonNode args;
    try {
      args = Json.parse(text);
    } catch (IOException e) {
      return; // the transport refuses text that is not JSON before any tool sees it
    }
    if (args == null) return;
    try {
      CHECK.check(tool, args);
    } catch (Refusal r) {
      if (!ToolErrorCodes.VALIDATION_ERROR.equals(r.error().code()))
        throw new AssertionError("a schema refusal with code " + r.error().code());
      if (r.error().field() == null)
        throw new AssertionError("a refusal that names no field: " + r.getMessage());
    } catch (RuntimeException e) {
      throw new AssertionError(tool.name() + " threw " + e + " for " + text, e);
    }
  }

  private static final String[] PIECES = {
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"path\"",
    "\"content\"",
    "\"url\"",
    "\"max_results\"",
    "1e400",
    "-1",
    "0",
    "1.5",
    "9223372036854775808",
    "true",
    "null",
    "\"x\"",
    "\"\"",
    "\"~/a\"",
    "{}",
    "[]",
    "\"\\u0000\"",
    "\"text\"",
    "\"title\""
  };

  @ParameterizedTest
  @ValueSource(longs = {1, 2})
  void the_schema_check_never_throws(long seed) {
    Random random = new Random(seed);
    for (int i = 0; i < 3000; i++) {
      StringBuilder b = new StringBuilder("{");
      for (int n = random.nextInt(8); n > 0; n--) b.append(PIECES[random.nextInt(PIECES.length)]);
      checkNeverThrows(ALL.get(random.nextInt(ALL.size())), b.toString());
    }
  }

  @FuzzTest(maxDuration = "10m")
  void fuzz_schema_check(FuzzedDataProvider data) {
    checkNeverThrows(ALL.get(data.consumeInt(0, ALL.size() - 1)), data.consumeRemainingAsString());
  }
}
