package dev.steward.app.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.model.chat.request.json.JsonAnyOfSchema;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonBooleanSchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonNullSchema;
import dev.langchain4j.model.chat.request.json.JsonNumberSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Converts a tool's JSON Schema (draft 2020-12, as {@code tools.list} sends it) into langchain4j's
 * schema elements. The model only needs a guide: the service validates every call against the
 * full schema, so keywords langchain4j cannot express (bounds, patterns) are carried in the
 * description rather than dropped silently.
 */
public final class SchemaConverter {

  private SchemaConverter() {}

  public static JsonObjectSchema toObjectSchema(JsonNode schema) {
    JsonSchemaElement element = convert(schema);
    if (element instanceof JsonObjectSchema object) return object;
    throw new IllegalArgumentException(
        "a tool's arguments are a JSON object, not " + schema.path("type"));
  }

  static JsonSchemaElement convert(JsonNode schema) {
    String description = describe(schema);
    if (schema.has("enum")) {
      List<String> values = new ArrayList<>();
      schema.get("enum").forEach(v -> values.add(v.asText()));
      return JsonEnumSchema.builder()
          .enumValues(values)
          .description(description)
          .build();
    }
    if (schema.has("const")) {
      return JsonEnumSchema.builder()
          .enumValues(List.of(schema.get("const").asText()))
          .description(description)
          .build();
    }
    for (String combinator : new String[] {"anyOf", "oneOf"}) {
      if (schema.has(combinator)) {
        List<JsonSchemaElement> options = new ArrayList<>();
        schema.get(combinator).forEach(o -> options.add(convert(o)));
        return JsonAnyOfSchema.builder().anyOf(options).description(description).build();
      }
    }
    JsonNode type = schema.path("type");
    if (type.isArray()) {
      List<JsonSchemaElement> options = new ArrayList<>();
      type.forEach(t -> options.add(convertTyped(t.asText(), schema, description)));
      return options.size() == 1
          ? options.get(0)
          : JsonAnyOfSchema.builder().anyOf(options).description(description).build();
    }
    if (type.isMissingNode() && schema.has("properties"))
      return convertTyped("object", schema, description);
    return convertTyped(type.asText("string"), schema, description);
  }

  private static JsonSchemaElement convertTyped(
      String type, JsonNode schema, @Nullable String description) {
    switch (type) {
      case "object": {
        JsonObjectSchema.Builder builder = JsonObjectSchema.builder().description(description);
        Iterator<Map.Entry<String, JsonNode>> fields = schema.path("properties").fields();
        while (fields.hasNext()) {
          Map.Entry<String, JsonNode> field = fields.next();
          builder.addProperty(field.getKey(), convert(field.getValue()));
        }
        List<String> required = new ArrayList<>();
        schema.path("required").forEach(r -> required.add(r.asText()));
        builder.required(required);
        JsonNode additional = schema.get("additionalProperties");
        if (additional != null && additional.isBoolean())
          builder.additionalProperties(additional.asBoolean());
        return builder.build();
      }
      case "array": {
        JsonNode items = schema.get("items");
        JsonArraySchema.Builder builder = JsonArraySchema.builder().description(description);
        if (items != null && items.isObject()) builder.items(convert(items));
        return builder.build();
      }
      case "integer":
        return JsonIntegerSchema.builder().description(description).build();
      case "number":
        return JsonNumberSchema.builder().description(description).build();
      case "boolean":
        return JsonBooleanSchema.builder().description(description).build();
      case "null":
        return new JsonNullSchema();
      default:
        return JsonStringSchema.builder().description(description).build();
    }
  }

  /** The description plus the limits the model should respect, in words. */
  private static @Nullable String describe(JsonNode schema) {
    List<String> parts = new ArrayList<>();
    if (schema.hasNonNull("description")) parts.add(schema.get("description").asText());
    List<String> limits = new ArrayList<>();
    for (String keyword : new String[] {
      "minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems", "pattern", "default"
    }) {
      if (schema.has(keyword)) limits.add(keyword + " " + schema.get(keyword));
    }
    if (!limits.isEmpty()) parts.add("(" + String.join(", ", limits) + ")");
    return parts.isEmpty() ? null : String.join(" ", parts);
  }
}
