package dev.steward.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.home.StewardPlaces;
import dev.steward.protocol.json.Json;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How the app was started: where Steward's folders are, how to start the service when none runs,
 * and the environment (for {@code STEWARD_OLLAMA_URL} / {@code STEWARD_MODEL}).
 */
public record AppConfig(StewardPlaces places, List<String> serviceCommand, Map<String, String> serviceEnvironment, Map<String, String> env) {

  /** The system property the launcher sets: the service's command as a JSON array of strings. */
  public static final String SERVICE_COMMAND_PROPERTY = "steward.service.command";

  public static AppConfig fromEnvironment() {
    return new AppConfig(
        StewardPlaces.fromEnvironment(),
        parseCommand(System.getProperty(SERVICE_COMMAND_PROPERTY, "")),
        Map.of("STEWARD_NO_BUILD", "1"),
        System.getenv());
  }

  static List<String> parseCommand(String json) {
    if (json.isBlank()) return List.of();
    try {
      JsonNode node = Json.parse(json);
      List<String> command = new ArrayList<>();
      node.forEach(n -> command.add(n.asText()));
      return command;
    } catch (IOException e) {
      throw new IllegalArgumentException(SERVICE_COMMAND_PROPERTY + " is a JSON array of strings: " + e.getMessage(), e);
    }
  }
}
