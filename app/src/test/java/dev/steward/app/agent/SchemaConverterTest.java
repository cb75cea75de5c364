package dev.steward.app.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.model.chat.request.json.JsonAnyOfSchema;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonBooleanSchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import dev.steward.protocol.json.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

class SchemaConverterTest {

  @Test
  void convertsATypicalToolSchema() throws Exception {
    JsonObjectSchema s = SchemaConverter.toObjectSchema(Json.parse("""
                {"type":"object","additionalProperties":false,"required":["path"],
                 "properties":{
                   "path":{"type":"string","description":"where","maxLength":4096},
                   "depth":{"type":"integer","minimum":0,"maximum":32},
                   "hidden":{"type":"boolean"},
                   "urgency":{"enum":["low","normal","critical"]},
                   "names":{"type":"array","items":{"type":"string"}},
                   "target":{"type":["string","null"]},
                   "opts":{"type":"object","properties":{"x":{"type":"number"}}}}}"""));
    assertEquals(List.of("path"), s.required());
    assertEquals(Boolean.FALSE, s.additionalProperties());
    JsonStringSchema path =
        assertInstanceOf(JsonStringSchema.class, s.properties().get("path"));
    assertTrue(
        path.description().contains("where") && path.description().contains("maxLength 4096"),
        path.description());
    assertInstanceOf(JsonIntegerSchema.class, s.properties().get("depth"));
    assertInstanceOf(JsonBooleanSchema.class, s.properties().get("hidden"));
    assertEquals(
        List.of("low", "normal", "critical"),
        assertInstanceOf(JsonEnumSchema.class, s.properties().get("urgency")).enumValues());
    assertInstanceOf(
        JsonStringSchema.class,
        assertInstanceOf(JsonArraySchema.class, s.properties().get("names")).items());
    assertEquals(
        2,
        assertInstanceOf(JsonAnyOfSchema.class, s.properties().get("target"))
            .anyOf()
            .size());
    assertInstanceOf(JsonObjectSchema.class, s.properties().get("opts"));
  }

  @Test
  void argumentsThatAreNotAnObjectAreRefused() throws Exception {
    assertThrows(
        IllegalArgumentException.class,
        () -> SchemaConverter.toObjectSchema(Json.parse("{\"type\":\"string\"}")));
  }
}
