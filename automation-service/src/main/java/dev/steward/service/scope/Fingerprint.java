package dev.steward.service.scope;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;

/**
 * Which file a path names now, and whether that file has changed: what a confirm token binds of
 * each file the dialog showed, besides its path. A file moved into the path, or written, gives
 * another fingerprint, so an approval made on one file cannot land on another under the same name.
 *
 * <p>A fingerprint covers the file's identity (device and inode), type, size, modification time
 * and change time. The change time is the one a program cannot set back (only the kernel writes
 * it, on every write, rename or change of attributes), so content put back to its old size and
 * time still differs, and so does a new file that was given a freed inode. A folder's changes
 * when an entry is added, removed or renamed in it, not when a file deeper down is written. A path
 * that names nothing is {@link #ABSENT}, so a file that appears there after the user approved
 * creating one differs too.
 */
public final class Fingerprint {

  /** The fingerprint of a path that names nothing. */
  public static final String ABSENT = "absent";

  private static final String ATTRIBUTES = "unix:dev,ino,mode,size,ctime,lastModifiedTime";
  private static final int S_IFMT = 0170000;

  private Fingerprint() {}

  /**
   * The fingerprint of {@code real}, a resolved path, read without following a link in its last
   * name. A path that cannot be read gives a mark of why, the same each time, so a call that the
   * tool itself would refuse is refused by the tool and not here.
   */
  public static String of(Path real) {
    Map<String, Object> a;
    try {
      a = Files.readAttributes(real, ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return ABSENT;
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return "unreadable: " + e.getClass().getSimpleName();
    }
    return digest(attribute(a, "dev") + ":" + attribute(a, "ino") + " "
        + ((Integer) attribute(a, "mode") & S_IFMT) + " " + attribute(a, "size") + " "
        + nanos(attribute(a, "ctime")) + " " + nanos(attribute(a, "lastModifiedTime")));
  }

  /** The unix view always answers the attributes asked for. */
  private static Object attribute(Map<String, Object> a, String name) {
    return java.util.Objects.requireNonNull(a.get(name), name);
  }

  private static String nanos(Object time) {
    java.time.Instant t = ((FileTime) time).toInstant();
    return t.getEpochSecond() + "." + t.getNano();
  }

  /** Opaque on the wire: a client compares fingerprints, it never reads one. */
  private static String digest(String s) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d, 0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
