package dev.steward.service.tools.browser;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Finds a Chromium to drive, in this order: a configured path ({@code STEWARD_BROWSER}), the
 * system's Chromium or Chrome, then a browser Playwright installed itself. Nothing is ever
 * downloaded.
 */
final class BrowserLocator {

  private BrowserLocator() {}

  static Optional<Path> find(Map<String, String> env, Path userHome, String osName) {
    for (Path candidate : candidates(env, userHome, osName)) {
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate))
        return Optional.of(candidate);
    }
    return Optional.empty();
  }

  static List<Path> candidates(Map<String, String> env, Path userHome, String osName) {
    List<Path> out = new ArrayList<>();
    String configured = env.get("STEWARD_BROWSER");
    if (configured != null && !configured.isBlank()) out.add(Path.of(configured));
    String os = osName.toLowerCase(Locale.ROOT);
    Path cache = env.get("PLAYWRIGHT_BROWSERS_PATH") != null
            && !env.get("PLAYWRIGHT_BROWSERS_PATH").isBlank()
        ? Path.of(env.get("PLAYWRIGHT_BROWSERS_PATH"))
        : os.contains("mac")
            ? userHome.resolve("Library/Caches/ms-playwright")
            : os.contains("win")
                ? Path.of(
                    env.getOrDefault(
                        "LOCALAPPDATA", userHome.resolve("AppData/Local").toString()),
                    "ms-playwright")
                : userHome.resolve(".cache/ms-playwright");
    if (os.contains("mac")) {
      out.add(Path.of("/Applications/Chromium.app/Contents/MacOS/Chromium"));
      out.add(Path.of("/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"));
    } else if (os.contains("win")) {
      for (String base : new String[] {
        env.get("ProgramFiles"), env.get("ProgramFiles(x86)"), env.get("LOCALAPPDATA")
      }) {
        if (base != null) out.add(Path.of(base, "Google/Chrome/Application/chrome.exe"));
      }
    } else {
      for (String p : new String[] {
        "/usr/bin/chromium", "/usr/bin/google-chrome-stable", "/usr/bin/google-chrome"
      }) {
        out.add(Path.of(p));
      }
    }
    // After the system's: Playwright's own Chromium runs without the AppArmor profile a
    // distribution's has (Ubuntu 24.04 then refuses it user namespaces, so its sandbox), and its
    // folder in the user's cache is one more place a program of the user's can write.
    out.addAll(playwrightBrowsers(cache, os));
    // Last, a snap's (Ubuntu's chromium-browser is one): its confinement keeps it from the hidden
    // folders Steward keeps its browser profile in.
    if (!os.contains("mac") && !os.contains("win")) {
      out.add(Path.of("/usr/bin/chromium-browser"));
      out.add(Path.of("/snap/bin/chromium"));
    }
    return out;
  }

  /** A folder's revision as a number ({@code chromium-999} is older than {@code chromium-1181}). */
  private static long revision(Path dir) {
    String digits = dir.getFileName().toString().substring("chromium-".length());
    return digits.matches("[0-9]{1,18}") ? Long.parseLong(digits) : -1;
  }

  /** Newest first: Playwright keeps one folder per revision ({@code chromium-1234}). */
  private static List<Path> playwrightBrowsers(Path cache, String os) {
    if (!Files.isDirectory(cache)) return List.of();
    String relative = os.contains("mac")
        ? "chrome-mac/Chromium.app/Contents/MacOS/Chromium"
        : os.contains("win") ? "chrome-win/chrome.exe" : "chrome-linux/chrome";
    try (Stream<Path> dirs = Files.list(cache)) {
      return dirs.filter(d -> d.getFileName().toString().startsWith("chromium-"))
          .sorted(Comparator.comparingLong(BrowserLocator::revision).reversed())
          .map(d -> d.resolve(relative))
          .toList();
    } catch (IOException e) {
      return List.of();
    }
  }
}
