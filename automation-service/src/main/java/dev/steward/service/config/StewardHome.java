package dev.steward.service.config;

import dev.steward.protocol.home.StewardPlaces;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where Steward keeps its files (SPEC §9; the rule is {@link StewardPlaces}). Everything the
 * service writes lives under {@link #config()}, {@link #data()} and {@link #run()}; the path scope
 * refuses all three to the tools.
 */
public record StewardHome(Path config, Path data, Path run, Path userHome) {

  public StewardHome {
    config = config.toAbsolutePath().normalize();
    data = data.toAbsolutePath().normalize();
    run = run.toAbsolutePath().normalize();
    userHome = userHome.toAbsolutePath().normalize();
  }

  public static StewardHome fromEnvironment() {
    return of(StewardPlaces.fromEnvironment());
  }

  static StewardHome from(Map<String, String> env, Path userHome, String osName) {
    return of(StewardPlaces.from(env, userHome, osName));
  }

  /** A self-contained home: {@code base/config}, {@code base/data}, {@code base/run}. */
  public static StewardHome under(Path base, Path userHome) {
    return of(StewardPlaces.under(base, userHome));
  }

  private static StewardHome of(StewardPlaces places) {
    return new StewardHome(places.config(), places.data(), places.run(), places.userHome());
  }

  public StewardPlaces places() {
    return new StewardPlaces(config, data, run, userHome);
  }

  public void create() throws IOException {
    for (Path dir : new Path[] {config, data, run}) {
      Files.createDirectories(dir);
      Owner.restrict(dir, true);
    }
  }

  public Path policyFile() {
    return places().policyFile();
  }

  public Path serviceInfoFile() {
    return places().serviceInfoFile();
  }
}
