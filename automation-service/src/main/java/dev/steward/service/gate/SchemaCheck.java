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
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Step 1: the arguments against the tool's JSON Schema (draft 2020-12), compiled once per tool. */
final class SchemaCheck {

  private final Map<String, Schema> schemas = new HashMap<>();

  SchemaCheck(ToolRegistry tools) {
    SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    for (Tool t : tools.all()) {
      schemas.put(t.name(), registry.getSchema(t.definition().argsSchema()));
    }
  }

  void check(Tool tool, JsonNode args) throws Refusal {
    if (!args.isObject()) {
      throw new Refusal(ToolErrorCodes.VALIDATION_ERROR, "args must be a JSON object", "");
    }
    List<Error> errors = schemas.get(tool.name()).validate(args);
    if (errors.isEmpty()) return;
    Error first = errors.stream().min(Comparator.comparing(e -> e.getInstanceLocation().toString())).orElseThrow();
    String pointer = pointer(first);
    String message = first.getMessage();
    throw new Refusal(ToolErrorCodes.VALIDATION_ERROR, "invalid arguments for " + tool.name() + ": " + message, pointer);
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
        if (inner.startsWith("'") && inner.endsWith("'")) inner = inner.substring(1, inner.length() - 1);
        out.append('/').append(inner.replace("~", "~0").replace("/", "~1"));
        i = j + 1;
      } else {
        i++;
      }
    }
    return out.toString();
  }
}
