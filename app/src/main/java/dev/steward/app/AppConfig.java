package dev.steward.app;

import dev.steward.protocol.home.StewardPlaces;
import dev.steward.protocol.service.ServiceCommand;
import java.util.List;
import java.util.Map;

/**
 * How the app was started: where Steward's folders are, how to start the service when none runs,
 * and the environment (for {@code STEWARD_OLLAMA_URL} / {@code STEWARD_MODEL}).
 */
public record AppConfig(
    StewardPlaces places,
    List<String> serviceCommand,
    Map<String, String> serviceEnvironment,
    Map<String, String> env) {

  public static AppConfig fromEnvironment() {
    List<String> command = ServiceCommand.fromSystemProperty();
    if (command.isEmpty()) command = installedServiceLauncher();
    return new AppConfig(
        StewardPlaces.fromEnvironment(), command, Map.of("STEWARD_NO_BUILD", "1"), System.getenv());
  }

  /**
   * In an installed package the service's launcher sits next to the window's: jpackage tells the
   * app where its own launcher is ({@code jpackage.app-path}).
   */
  static List<String> installedServiceLauncher() {
    String appPath = System.getProperty("jpackage.app-path");
    if (appPath == null || appPath.isBlank()) return List.of();
    java.nio.file.Path dir = java.nio.file.Path.of(appPath).getParent();
    if (dir == null) return List.of();
    boolean windows =
        System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("win");
    java.nio.file.Path service = dir.resolve(windows ? "steward-service.exe" : "steward-service");
    return java.nio.file.Files.isExecutable(service) ? List.of(service.toString()) : List.of();
  }
}
