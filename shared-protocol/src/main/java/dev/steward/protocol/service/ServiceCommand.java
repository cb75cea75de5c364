package dev.steward.protocol.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.json.Json;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * How a client starts the service when none runs: the launcher passes the command as a JSON array
 * of strings in the system property {@value #PROPERTY} (never run through a shell).
 */
public final class ServiceCommand {

  public static final String PROPERTY = "steward.service.command";

  private ServiceCommand() {}

  /** The command the launcher gave, or an empty list when it gave none. */
  public static List<String> fromSystemProperty() {
    return parse(System.getProperty(PROPERTY, ""));
  }

  public static List<String> parse(String json) {
    if (json.isBlank()) return List.of();
    try {
      JsonNode node = Json.parse(json);
      List<String> command = new ArrayList<>();
      node.forEach(n -> command.add(n.asText()));
      return command;
    } catch (IOException e) {
      throw new IllegalArgumentException(
          PROPERTY + " is a JSON array of strings: " + e.getMessage(), e);
    }
  }
}
