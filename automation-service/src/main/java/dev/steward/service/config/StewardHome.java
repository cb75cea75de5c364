package dev.steward.service.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * Where Steward keeps its files (SPEC §9): {@code STEWARD_HOME} when set, else the platform's
 * places. Everything the service writes lives under {@link #config()}, {@link #data()} and
 * {@link #run()}; the path scope refuses all three to the tools.
 */
public record StewardHome(Path config, Path data, Path run, Path userHome) {

  public StewardHome {
    config = config.toAbsolutePath().normalize();
    data = data.toAbsolutePath().normalize();
    run = run.toAbsolutePath().normalize();
    userHome = userHome.toAbsolutePath().normalize();
  }

  public static StewardHome fromEnvironment() {
    return from(System.getenv(), Path.of(System.getProperty("user.home")), System.getProperty("os.name", ""));
  }

  static StewardHome from(Map<String, String> env, Path userHome, String osName) {
    String home = env.get("STEWARD_HOME");
    if (home != null && !home.isBlank()) {
      return under(Path.of(home), userHome);
    }
    String os = osName.toLowerCase(java.util.Locale.ROOT);
    if (os.contains("mac")) {
      Path base = userHome.resolve("Library/Application Support/Steward");
      return new StewardHome(base.resolve("config"), base.resolve("data"), base.resolve("run"), userHome);
    }
    if (os.contains("win")) {
      Path base = Path.of(Objects.requireNonNullElse(env.get("APPDATA"), userHome.resolve("AppData/Roaming").toString()), "Steward");
      return new StewardHome(base.resolve("config"), base.resolve("data"), base.resolve("run"), userHome);
    }
    Path config = xdg(env, "XDG_CONFIG_HOME", userHome.resolve(".config")).resolve("steward");
    Path data = xdg(env, "XDG_DATA_HOME", userHome.resolve(".local/share")).resolve("steward");
    return new StewardHome(config, data, data.resolve("run"), userHome);
  }

  /** A self-contained home: {@code base/config}, {@code base/data}, {@code base/run}. */
  public static StewardHome under(Path base, Path userHome) {
    return new StewardHome(base.resolve("config"), base.resolve("data"), base.resolve("run"), userHome);
  }

  private static Path xdg(Map<String, String> env, String name, Path fallback) {
    String value = env.get(name);
    return value == null || value.isBlank() || !Path.of(value).isAbsolute() ? fallback : Path.of(value);
  }

  public void create() throws IOException {
    for (Path dir : new Path[] {config, data, run}) {
      Files.createDirectories(dir);
      Owner.restrict(dir, true);
    }
  }

  public Path policyFile() {
    return config.resolve("policy.json");
  }

  public Path serviceInfoFile() {
    return run.resolve("service.json");
  }
}
