package dev.steward.service.util;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Whether the service runs as root, which changes how its sandboxes start: Chromium cannot keep its
 * own sandbox as root, bubblewrap started by root keeps root's capabilities unless told otherwise,
 * and a code run started by root is switched to another user. Asked of the kernel (the effective
 * user id), not of the account's name: uid 0 may go by another name, or by none in a container, and
 * {@code user.name} is a property any command line can set.
 */
public final class Privilege {

  private static final boolean ROOT = isRoot();

  private Privilege() {}

  public static boolean root() {
    return ROOT;
  }

  /**
   * The effective user id from the lines of {@code /proc/<pid>/status} ({@code Uid:} real,
   * effective, saved, file system); -1 when they do not say.
   */
  static long effectiveUid(List<String> status) {
    for (String line : status) {
      if (!line.startsWith("Uid:")) continue;
      String[] ids = line.substring(4).trim().split("\\s+");
      if (ids.length < 2) return -1;
      try {
        return Long.parseLong(ids[1]);
      } catch (NumberFormatException e) {
        return -1;
      }
    }
    return -1;
  }

  private static boolean isRoot() {
    try {
      return effectiveUid(Files.readAllLines(Path.of("/proc/self/status"))) == 0;
    } catch (IOException e) {
      // No /proc (not Linux, or hidden): the account's name is all there is to go by.
      return "root".equals(System.getProperty("user.name"));
    }
  }
}
