package dev.steward.protocol.home;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Where Steward keeps its files (SPEC §9): {@code STEWARD_HOME} when set, else the platform's
 * places. The service and the app both find each other through these folders, so the rule lives
 * here, once.
 */
public record StewardPlaces(Path config, Path data, Path run, Path userHome) {

  public StewardPlaces {
    config = config.toAbsolutePath().normalize();
    data = data.toAbsolutePath().normalize();
    run = run.toAbsolutePath().normalize();
    userHome = userHome.toAbsolutePath().normalize();
  }

  public static StewardPlaces fromEnvironment() {
    return from(
        System.getenv(),
        Path.of(System.getProperty("user.home")),
        System.getProperty("os.name", ""));
  }

  public static StewardPlaces from(Map<String, String> env, Path userHome, String osName) {
    String home = env.get("STEWARD_HOME");
    if (home != null && !home.isBlank()) {
      return under(Path.of(home), userHome);
    }
    String os = osName.toLowerCase(Locale.ROOT);
    if (os.contains("mac")) {
      return under(userHome.resolve("Library/Application Support/Steward"), userHome);
    }
    if (os.contains("win")) {
      String appData = Objects.requireNonNullElse(
          env.get("APPDATA"), userHome.resolve("AppData/Roaming").toString());
      return under(Path.of(appData, "Steward"), userHome);
    }
    Path config = xdg(env, "XDG_CONFIG_HOME", userHome.resolve(".config")).resolve("steward");
    Path data = xdg(env, "XDG_DATA_HOME", userHome.resolve(".local/share")).resolve("steward");
    return new StewardPlaces(config, data, data.resolve("run"), userHome);
  }

  /** A self-contained home: {@code base/config}, {@code base/data}, {@code base/run}. */
  public static StewardPlaces under(Path base, Path userHome) {
    return new StewardPlaces(
        base.resolve("config"), base.resolve("data"), base.resolve("run"), userHome);
  }

  private static Path xdg(Map<String, String> env, String name, Path fallback) {
    String value = env.get(name);
    return value == null || value.isBlank() || !Path.of(value).isAbsolute()
        ? fallback
        : Path.of(value);
  }

  public Path policyFile() {
    return config.resolve("policy.json");
  }

  public Path settingsFile() {
    return config.resolve("settings.json");
  }

  /** Keys and passwords for model servers and tool packs (SPEC §13, §14), owner-only. */
  public Path secretsFile() {
    return config.resolve("secrets.json");
  }

  public Path uiSecretFile() {
    return config.resolve("ui.secret");
  }

  public Path agentSecretFile() {
    return config.resolve("agent.secret");
  }

  /** The secret of a role's connections: {@code config/<role>.secret}, owner-only. */
  public Path secretFile(dev.steward.protocol.method.Role role) {
    return config.resolve(role.wire() + ".secret");
  }

  public Path serviceInfoFile() {
    return run.resolve("service.json");
  }
}
