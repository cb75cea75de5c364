package dev.steward.protocol.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/** {@code run/service.json}: where a running service listens (SPEC §9). */
public record ServiceInfo(int port, long pid, String version) {

  /** The file's content, or empty when there is none or it is unreadable (a service mid-write). */
  public static Optional<ServiceInfo> read(Path file) {
    try {
      JsonNode node = Json.parse(Files.readString(file));
      int port = node.path("port").asInt(-1);
      long pid = node.path("pid").asLong(-1);
      if (port <= 0 || port > 65535 || pid <= 0) return Optional.empty();
      return Optional.of(new ServiceInfo(port, pid, node.path("version").asText("")));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** Whether the process that wrote the file still runs; a dead pid means the file is stale. */
  public boolean processAlive() {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }
}
