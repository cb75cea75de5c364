package dev.steward.protocol.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The properties of {@link JsonProperties}: thousands of seeded cases in every build, and
 * coverage-guided runs under {@code ./steward fuzz} (each {@code @FuzzTest} replays its saved
 * inputs in every build too).
 */
class JsonPropertiesTest {

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4})
  void canonical_hashes_ignore_spelling_and_tell_values_apart(long seed) throws Exception {
    Random random = new Random(seed);
    for (int i = 0; i < 2000; i++) JsonProperties.canonicalHash(Draws.of(random));
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2})
  void the_codec_answers_any_text(long seed) {
    Random random = new Random(seed);
    String[] pieces = {
      "{",
      "}",
      "[",
      "]",
      "\"jsonrpc\"",
      ":",
      "\"2.0\"",
      ",",
      "\"id\"",
      "1",
      "null",
      "\"method\"",
      "\"tool.execute\"",
      "\"params\"",
      "1e400",
      "-0",
      "\"\\ud800\"",
      "true",
      " ",
      "\"x\"",
      "9999999999999999999999"
    };
    for (int i = 0; i < 5000; i++) {
      StringBuilder b = new StringBuilder();
      for (int n = random.nextInt(20); n > 0; n--) b.append(pieces[random.nextInt(pieces.length)]);
      JsonProperties.codecAnswersEverything(b.toString());
    }
  }

  @FuzzTest(maxDuration = "10m")
  void fuzz_canonical_json(FuzzedDataProvider data) throws Exception {
    JsonProperties.canonicalHash(Draws.of(data));
  }

  @FuzzTest(maxDuration = "10m")
  void fuzz_jsonrpc_codec(String text) {
    if (text != null) JsonProperties.codecAnswersEverything(text);
  }
}
