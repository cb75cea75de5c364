package dev.steward.service.tools;

import dev.steward.protocol.json.CanonicalJson;
import java.nio.charset.StandardCharsets;

/**
 * The stamp of something a call acts on beyond its paths (a calendar event as the server holds
 * it), for {@link Tool#versions}: the argument that names it, and a digest of its version, opaque
 * to the window that hands it back. Two stamps match when the thing has not changed.
 */
public final class VersionStamp {

  private static final String PREFIX = "version ";

  private VersionStamp() {}

  /**
   * The stamp of the thing {@code pointer} (a JSON pointer without spaces) names, from what
   * identifies its version.
   */
  public static String of(String pointer, String version) {
    return PREFIX + pointer + " "
        + CanonicalJson.sha256Hex(version.getBytes(StandardCharsets.UTF_8));
  }

  /** The stamp of an argument that names nothing (now). */
  public static String missing(String pointer) {
    return PREFIX + pointer + " missing";
  }

  /** Whether a stamp is of an argument that named nothing when it was read. */
  public static boolean isMissing(String stamp) {
    return stamp.startsWith(PREFIX) && stamp.endsWith(" missing");
  }

  /** The argument a version stamp is of, or null for a file's stamp. */
  public static @org.jspecify.annotations.Nullable String pointer(String stamp) {
    if (!stamp.startsWith(PREFIX)) return null;
    int end = stamp.indexOf(' ', PREFIX.length());
    return end < 0 ? null : stamp.substring(PREFIX.length(), end);
  }
}
