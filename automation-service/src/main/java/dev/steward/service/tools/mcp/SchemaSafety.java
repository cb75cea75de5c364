package dev.steward.service.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/**
 * A server's input schema is compiled by Steward's validator, which would follow a reference to
 * another document — a look-up the server chose, made by Steward. Such a schema is refused: MCP
 * tool schemas are self-contained.
 */
final class SchemaSafety {

  /** The dialects the validator carries; any other would be fetched. */
  private static final java.util.Set<String> KNOWN_DIALECTS = java.util.Set.of(
      "http://json-schema.org/draft-04/schema",
      "http://json-schema.org/draft-06/schema",
      "http://json-schema.org/draft-07/schema",
      "https://json-schema.org/draft/2019-09/schema",
      "https://json-schema.org/draft/2020-12/schema");

  private SchemaSafety() {}

  static Optional<String> problem(JsonNode schema) {
    if (!schema.isObject()) return Optional.of("its input schema is not a JSON object");
    JsonNode dialect = schema.get("$schema");
    if (dialect != null && !KNOWN_DIALECTS.contains(dialect.asText().replaceAll("#$", ""))) {
      return Optional.of("its input schema names a dialect Steward does not know ("
          + dialect.asText() + "); the tool stays off");
    }
    String pattern = unsafePattern(schema, 0);
    if (pattern != null) {
      return Optional.of("its input schema has a pattern Steward cannot match in linear time ("
          + McpResults.cut(pattern, 200) + "); the tool stays off");
    }
    String outside = outsideReference(schema, 0);
    return outside == null
        ? Optional.empty()
        : Optional.of("its input schema refers to another document (" + outside
            + "), which Steward does not fetch; the tool stays off");
  }

  /** The first {@code pattern} (or {@code patternProperties} key) RE2 cannot compile, or null. */
  private static @org.jspecify.annotations.Nullable String unsafePattern(JsonNode node, int depth) {
    if (depth > 64) return null;
    if (node.isObject()) {
      JsonNode p = node.get("pattern");
      if (p != null && p.isTextual() && !compiles(p.asText())) return p.asText();
      JsonNode props = node.get("patternProperties");
      if (props != null && props.isObject()) {
        for (var it = props.fieldNames(); it.hasNext(); ) {
          String key = it.next();
          if (!compiles(key)) return key;
        }
      }
    }
    for (JsonNode child : node) {
      String found = unsafePattern(child, depth + 1);
      if (found != null) return found;
    }
    return null;
  }

  private static boolean compiles(String regex) {
    try {
      com.google.re2j.Pattern.compile(regex);
      return true;
    } catch (com.google.re2j.PatternSyntaxException e) {
      return false;
    }
  }

  private static @org.jspecify.annotations.Nullable String outsideReference(
      JsonNode node, int depth) {
    if (depth > 64) return "nesting deeper than 64";
    if (node.isObject()) {
      for (String key : new String[] {"$ref", "$dynamicRef", "$recursiveRef"}) {
        JsonNode ref = node.get(key);
        if (ref != null && ref.isTextual() && !ref.asText().startsWith("#")) return ref.asText();
      }
      var it = node.elements();
      while (it.hasNext()) {
        String found = outsideReference(it.next(), depth + 1);
        if (found != null) return found;
      }
    } else if (node.isArray()) {
      for (JsonNode child : node) {
        String found = outsideReference(child, depth + 1);
        if (found != null) return found;
      }
    }
    return null;
  }
}
