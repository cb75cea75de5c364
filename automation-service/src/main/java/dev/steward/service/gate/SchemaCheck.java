package dev.steward.service.gate;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.tools.Tool;
import dev.steward.service.tools.ToolRegistry;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Step 1: the arguments against the tool's JSON Schema (draft 2020-12), compiled once per schema —
 * on first use or by {@link #compileAll}, which the service runs once it answers, so compiling
 * them (~80 ms with the validator's classes) is not part of its start.
 */
final class SchemaCheck {

  /** By tool name, with the definition it was compiled from: a tool that changes is compiled anew. */
  private final Map<String, Compiled> schemas = new ConcurrentHashMap<>();

  private final ToolRegistry tools;
  private volatile @org.jspecify.annotations.Nullable SchemaRegistry registry;

  SchemaCheck(ToolRegistry tools) {
    this.tools = tools;
  }

  /** Compiles every tool's schema now (a call that comes first compiles its own). */
  void compileAll() {
    for (Tool t : tools.all()) {
      try {
        schema(t);
      } catch (RuntimeException e) {
        // the call that needs it says why it cannot be used
      }
    }
  }

  private record Compiled(JsonNode source, Schema schema) {}

  private Schema schema(Tool tool) {
    JsonNode source = tool.definition().argsSchema();
    Compiled c = schemas.get(tool.name());
    if (c != null && c.source() == source) return c.schema();
    Compiled fresh = new Compiled(source, registry().getSchema(source));
    schemas.put(tool.name(), fresh);
    return fresh.schema();
  }

  private SchemaRegistry registry() {
    SchemaRegistry r = registry;
    if (r == null) {
      synchronized (this) {
        r = registry;
        if (r == null)
          registry = r = SchemaRegistry.withDefaultDialect(
              SpecificationVersion.DRAFT_2020_12,
              b -> b.schemaRegistryConfig(com.networknt.schema.SchemaRegistryConfig.builder()
                  .regularExpressionFactory(new Re2Patterns())
                  .build()));
      }
    }
    return r;
  }

  void check(Tool tool, JsonNode args) throws Refusal {
    if (!args.isObject()) {
      throw new Refusal(ToolErrorCodes.VALIDATION_ERROR, "args must be a JSON object", "");
    }
    String infinite = nonFinite(args, "");
    if (infinite != null) {
      throw new Refusal(
          ToolErrorCodes.VALIDATION_ERROR,
          "invalid arguments for " + tool.name() + ": a number is too large to be used",
          infinite);
    }
    List<Error> errors;
    try {
      errors = schema(tool).validate(args);
    } catch (RuntimeException e) {
      // A schema the validator cannot use (a pattern RE2 refuses, a reference to nothing) checks
      // nothing: the call is refused, with a row, rather than run unchecked or lost.
      throw new Refusal(
          ToolErrorCodes.VALIDATION_ERROR,
          "the argument schema of " + tool.name() + " cannot be used: " + e.getMessage(),
          "/tool");
    }
    if (errors.isEmpty()) return;
    Error first = errors.stream()
        .min(Comparator.comparing(e -> e.getInstanceLocation().toString()))
        .orElseThrow();
    String pointer = pointer(first);
    String message = first.getMessage();
    throw new Refusal(
        ToolErrorCodes.VALIDATION_ERROR,
        "invalid arguments for " + tool.name() + ": " + message,
        pointer);
  }

  /** The pointer of the first number that overflowed to infinity when parsed ({@code 1e400}), or null. */
  static @org.jspecify.annotations.Nullable String nonFinite(JsonNode node, String at) {
    if (node.isFloatingPointNumber()) return Double.isFinite(node.doubleValue()) ? null : at;
    if (node.isObject()) {
      for (var it = node.fields(); it.hasNext(); ) {
        var e = it.next();
        String found =
            nonFinite(e.getValue(), at + "/" + e.getKey().replace("~", "~0").replace("/", "~1"));
        if (found != null) return found;
      }
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        String found = nonFinite(node.get(i), at + "/" + i);
        if (found != null) return found;
      }
    }
    return null;
  }

  /** The JSON pointer of the failing value; a missing property points at the property itself. */
  private static String pointer(Error e) {
    String base = toPointer(e.getInstanceLocation().toString());
    if ("required".equals(e.getKeyword()) && e.getProperty() != null) {
      return base + "/" + e.getProperty();
    }
    if ("additionalProperties".equals(e.getKeyword()) && e.getProperty() != null) {
      return base + "/" + e.getProperty();
    }
    return base;
  }

  /** networknt writes instance locations as {@code $.a.b[0]}; the wire wants {@code /a/b/0}. */
  static String toPointer(String location) {
    if (location.startsWith("/") || location.isEmpty()) return location;
    if (!location.startsWith("$")) return location;
    StringBuilder out = new StringBuilder();
    String rest = location.substring(1);
    int i = 0;
    while (i < rest.length()) {
      char c = rest.charAt(i);
      if (c == '.') {
        int j = i + 1;
        while (j < rest.length() && rest.charAt(j) != '.' && rest.charAt(j) != '[') j++;
        out.append('/').append(rest, i + 1, j);
        i = j;
      } else if (c == '[') {
        int j = rest.indexOf(']', i);
        String inner = rest.substring(i + 1, j);
        if (inner.startsWith("'") && inner.endsWith("'"))
          inner = inner.substring(1, inner.length() - 1);
        out.append('/').append(inner.replace("~", "~0").replace("/", "~1"));
        i = j + 1;
      } else {
        i++;
      }
    }
    return out.toString();
  }
}
