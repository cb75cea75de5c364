package dev.steward.service.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.home.AtomicFiles;
import dev.steward.protocol.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.logging.Logger;

/**
 * What the user accepted of each server's tools: per server and tool, the hash of the tool as the
 * server described it then (name, title, description, schemas, annotations). Kept in the MCP
 * pack's data folder, where no tool reaches; only the window's accept call changes it.
 */
final class Pins {

  private static final Logger LOG = Logger.getLogger(Pins.class.getName());

  /** How a tool stands against what the user accepted. */
  enum Standing {
    ACCEPTED,
    NEW,
    CHANGED;

    String wire() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  private final Path file;
  private final Map<String, Map<String, String>> byServer = new HashMap<>();

  Pins(Path file) {
    this.file = file;
    try {
      if (Files.exists(file)) {
        JsonNode root = Json.mapper().readTree(file.toFile());
        root.fields().forEachRemaining(server -> {
          Map<String, String> tools = new HashMap<>();
          server
              .getValue()
              .fields()
              .forEachRemaining(t -> tools.put(t.getKey(), t.getValue().asText()));
          byServer.put(server.getKey(), tools);
        });
      }
    } catch (IOException e) {
      // A damaged file accepts nothing: every tool is shown for review again, none runs unseen.
      LOG.warning(file + " cannot be read (" + e.getMessage() + "); every MCP tool awaits review");
    }
  }

  /** {@code server} is the server's pin key: its name and how it is started ({@link ServerLink#pinKey}). */
  synchronized Standing standing(String server, String tool, String hash) {
    String pinned = byServer.getOrDefault(server, Map.of()).get(tool);
    if (pinned == null) return Standing.NEW;
    return pinned.equals(hash) ? Standing.ACCEPTED : Standing.CHANGED;
  }

  /** Accepts these tools of a server as they are now described (tool name → hash). */
  synchronized void accept(String server, Map<String, String> hashes) {
    byServer.computeIfAbsent(server, s -> new HashMap<>()).putAll(hashes);
    save();
  }

  /** Forgets what was accepted of a server the user removed. */
  synchronized void forget(String server) {
    if (byServer.keySet().removeIf(key -> key.equals(server) || key.startsWith(server + "@")))
      save();
  }

  private void save() {
    ObjectNode root = Json.object();
    byServer.forEach((server, tools) -> {
      ObjectNode node = root.putObject(server);
      tools.forEach(node::put);
    });
    try {
      Files.createDirectories(file.getParent());
      AtomicFiles.write(
          file, root.toPrettyString().getBytes(java.nio.charset.StandardCharsets.UTF_8), true);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot keep the accepted MCP tools in " + file, e);
    }
  }
}
