package dev.steward.service.tools.mcp;

import dev.steward.service.scope.PathScope;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The places a stdio server sees read-only: where the user's session, and Steward itself outside
 * any sandbox, run programs from later — the shells' start files and autostart, the browsers
 * Playwright keeps and one set by {@code STEWARD_BROWSER}, the folders on the service's {@code
 * PATH} it can write, the code the service and the window start from when they can be rewritten
 * (a source checkout, its jars), other programs the service runs (the Playwright driver a package
 * ships), and a runtime the user owns. A server that wrote there would run as the user, outside its sandbox,
 * where it can read the window's secret.
 */
record RunPlaces(List<Path> paths) {

  RunPlaces {
    paths = List.copyOf(paths);
  }

  static RunPlaces of(
      Path userHome,
      Map<String, String> environment,
      String classPath,
      Path javaHome,
      List<Path> programs) {
    Set<Path> out = new LinkedHashSet<>();
    for (Path p : PathScope.startPlaces(userHome)) addReal(out, p);
    String browsers = environment.get("PLAYWRIGHT_BROWSERS_PATH");
    if (browsers != null && !browsers.isBlank()) addReal(out, Path.of(browsers));
    for (String dir : environment.getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!dir.isEmpty()) addWritable(out, Path.of(dir));
    }
    String browser = environment.get("STEWARD_BROWSER");
    if (browser != null && !browser.isBlank()) addWritable(out, Path.of(browser));
    Path maven = userHome.resolve(".m2");
    for (String entry : classPath.split(File.pathSeparator)) {
      if (entry.isEmpty()) continue;
      Path p = Path.of(entry).toAbsolutePath().normalize();
      addWritable(out, checkoutOf(p).orElse(p));
      // A source checkout's window starts from the same repository's other jars (JavaFX's).
      if (p.startsWith(maven)) addWritable(out, maven);
    }
    for (Path p : programs) addWritable(out, p);
    addWritable(out, javaHome);
    return new RunPlaces(outermost(out));
  }

  /** A source checkout's root (where the {@code steward} launcher and the build lie), above it. */
  private static java.util.Optional<Path> checkoutOf(Path entry) {
    for (Path p = entry.getParent(); p != null; p = p.getParent()) {
      if (Files.isRegularFile(p.resolve("steward")) && Files.isRegularFile(p.resolve("pom.xml")))
        return java.util.Optional.of(p);
    }
    return java.util.Optional.empty();
  }

  private static void addWritable(Set<Path> out, Path p) {
    if (Files.isWritable(p)) addReal(out, p);
  }

  /** Bubblewrap binds the real place; a link in its stead would be followed there anyway. */
  private static void addReal(Set<Path> out, Path p) {
    if (!Files.exists(p)) return;
    try {
      out.add(p.toRealPath());
    } catch (IOException e) {
      // gone since it was seen: nothing there to keep
    }
  }

  /** A place inside another already kept adds nothing but a mount. */
  private static List<Path> outermost(Set<Path> all) {
    List<Path> sorted = new ArrayList<>(all);
    sorted.sort(java.util.Comparator.comparingInt(Path::getNameCount));
    List<Path> out = new ArrayList<>();
    for (Path p : sorted) {
      if (out.stream().noneMatch(p::startsWith)) out.add(p);
    }
    return out;
  }
}
