package dev.steward.service.util;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where Playwright's driver runs from once it is named: by the package at launch, or by the
 * browser pack when it has unpacked one. Read by the browser pack and by the MCP servers' sandbox,
 * which keeps a shipped driver read-only.
 */
public final class PlaywrightDriver {

  /** Playwright's own: a folder that holds {@code node} and {@code package/cli.js}. */
  public static final String DIR_PROPERTY = "playwright.cli.dir";

  private PlaywrightDriver() {}

  /** The folder Playwright is told to run its driver from, if any is named yet. */
  public static List<Path> named() {
    return Stream.ofNullable(System.getProperty(DIR_PROPERTY)).map(Path::of).toList();
  }
}
