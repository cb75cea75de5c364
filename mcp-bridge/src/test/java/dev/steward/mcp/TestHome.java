package dev.steward.mcp;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.home.StewardPlaces;
import dev.steward.protocol.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A Steward home of the test's own: {@code config/policy.json} with {@code ~/Steward} as its one
 * folder, a user folder for {@code ~}, and the environment that points {@code ./steward} at them.
 */
public record TestHome(Path base, Path home, Path user) {

  /** @param access {@code read} or {@code read_write} for {@code ~/Steward} */
  public static TestHome create(String prefix, String access) throws IOException {
    Path base = Files.createTempDirectory(prefix).toRealPath();
    TestHome t = new TestHome(base, base.resolve("home"), base.resolve("user"));
    Files.createDirectories(t.user.resolve("Steward"));
    Files.createDirectories(t.home.resolve("config"));
    ObjectNode policy = Json.object();
    policy.putArray("paths").addObject().put("root", "~/Steward").put("access", access);
    Files.writeString(t.home.resolve("config/policy.json"), Json.pretty(policy));
    return t;
  }

  /** A file under {@code ~/Steward}. */
  public Path steward(String name) {
    return user.resolve("Steward").resolve(name);
  }

  public StewardPlaces places() {
    return StewardPlaces.under(home, user);
  }

  public Map<String, String> environment() {
    return Map.of(
        "STEWARD_HOME",
        home.toString(),
        "STEWARD_NO_BUILD",
        "1",
        "JAVA_TOOL_OPTIONS",
        "-Dsteward.warmup.rounds=0 -Duser.home=" + user);
  }

  /** How {@code ./steward service} is started for this home. */
  public List<String> serviceCommand(Path repo) {
    return List.of(repo.resolve("steward").toString(), "service");
  }

  public void delete() throws IOException {
    try (Stream<Path> walk = Files.walk(base)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
