package dev.steward.service.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Tool schemas are written as JSON text in the tool classes: readable, and exactly what ships. */
public final class Schemas {

  public static final String DIALECT = "https://json-schema.org/draft/2020-12/schema";

  private Schemas() {}

  public static JsonNode parse(String json) {
    try {
      return Json.parse(json.replace('\'', '"'));
    } catch (IOException e) {
      throw new UncheckedIOException("a tool schema is not valid JSON", e);
    }
  }
}
