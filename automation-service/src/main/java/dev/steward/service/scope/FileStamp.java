package dev.steward.service.scope;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Which file a path names now, and whether it has changed: what a confirm token binds of each path
 * the dialog showed (the wire's {@code fingerprints}). Another file moved into the path, or the file
 * written, gives another stamp, so an approval made on one file cannot land on another under the
 * same name.
 *
 * <p>A file's stamp covers its identity (device and inode), type, size, modification time and
 * change time. The change time is the one a program cannot set back (only the kernel writes it,
 * on every write, rename or change of attributes), so content put back to its old size and time
 * still differs, and so does a new file given a freed inode. What a folder's stamp covers follows
 * what the call does with it: a folder taken away ({@link Access#REMOVE}: a delete, a move) is
 * stamped with everything in it, since everything in it goes; a folder read (opened in an app) by
 * its identity; a folder written ({@link Access#WRITE}: made if missing) is only {@link #FOLDER},
 * since no write replaces a folder. A path that names nothing is {@link #ABSENT} where a call
 * writes (it makes a file there) and {@link #MISSING} where it reads or takes away.
 *
 * <p>A stamp names the file's identity apart from its state ({@code <identity>.<state>}, each
 * digested), so that a dialog shown again can say how a path changed ({@link #change}): written
 * in place, or another file in its place.
 */
public final class FileStamp {

  /** The stamp of a path that names nothing, where a call writes. */
  public static final String ABSENT = "absent";

  /** The stamp of a path that names nothing, where a call reads or takes away. */
  public static final String MISSING = "missing";

  /** How the stamp of a folder taken away begins (all that is in it, {@link #tree}). */
  private static final String TREE = "tree:";

  /** How a stamp that matches nothing begins: the path could not be read whole. */
  private static final String UNREADABLE = "unreadable:";

  /** The stamp of a folder where a call writes: it is not overwritten, whichever folder it is. */
  public static final String FOLDER = "folder";

  /** A folder taken away with more entries than this cannot be stamped: it matches nothing. */
  static final int MAX_TREE_ENTRIES = 2_000_000;

  private static final String ATTRIBUTES = "unix:dev,ino,mode,size,ctime,lastModifiedTime";
  private static final int S_IFMT = 0170000;
  private static final int S_IFDIR = 0040000;
  private static final SecureRandom RANDOM = new SecureRandom();

  private FileStamp() {}

  /**
   * The stamp of {@code real}, a resolved path, as a call with {@code access} uses it, read without
   * following a link in its last name. A path that cannot be read (not a missing one) gets a stamp
   * of its own that matches nothing, not even itself read again: what cannot be seen cannot be
   * shown as unchanged.
   */
  public static String of(Path real, Access access) {
    Map<String, Object> a;
    try {
      a = Files.readAttributes(real, ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return access == Access.WRITE ? ABSENT : MISSING;
    } catch (java.nio.file.FileSystemException e) {
      // A name below a file (ENOTDIR) names nothing, as a missing one does.
      if ("Not a directory".equals(e.getReason())) return access == Access.WRITE ? ABSENT : MISSING;
      return unmatched();
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return unmatched();
    }
    int type = (Integer) attribute(a, "mode") & S_IFMT;
    // The type goes with the identity: a freed inode taken by a folder is not the file it was.
    String identity =
        attribute(a, "dev") + ":" + attribute(a, "ino") + ":" + Integer.toOctalString(type);
    if (type == S_IFDIR) {
      return switch (access) {
        case WRITE -> FOLDER;
        case READ -> identified(identity, digest("dir " + identity));
        case REMOVE -> tree(real, identity);
      };
    }
    return identified(identity, digest(fileLine(identity, type, a)));
  }

  /**
   * How a path whose stamp was {@code approved} has changed when it is {@code now}, in the words of
   * the wire ({@code Grant}'s {@code changed[].how}); null when it may be used as approved.
   */
  public static @org.jspecify.annotations.Nullable String change(String approved, String now) {
    if (matches(approved, now)) return null;
    if (unreadable(now)) return "unreadable";
    if (now.equals(MISSING)) return "gone";
    if (approved.equals(ABSENT) || approved.equals(MISSING)) return "made";
    if (!identity(approved).isEmpty() && identity(approved).equals(identity(now)))
      return isTree(now) ? "changed_inside" : "written";
    return "replaced";
  }

  /** The identity part of a stamp; empty for a stamp that has none ({@link #FOLDER}, marks). */
  private static String identity(String stamp) {
    String s = isTree(stamp) ? stamp.substring(TREE.length()) : stamp;
    int dot = s.indexOf('.');
    return dot < 0 ? "" : s.substring(0, dot);
  }

  /**
   * Whether a path whose stamp is {@code now} may be used by a call approved when it was {@code
   * approved}: the same file unchanged; or, where the call writes, nothing there now (it makes a
   * new file and harms none) or a folder (which no write replaces). A tool that writes where the
   * check saw no file may not replace one that appears there after (the tool's {@code
   * destructive}). A stamp that could not be read matches nothing.
   */
  public static boolean matches(String approved, String now) {
    if (unreadable(now)) return false;
    return now.equals(approved) || now.equals(ABSENT) || now.equals(FOLDER);
  }

  /**
   * Whether a stamp is of a folder taken away, with all that is in it: such a stamp can be read
   * again where the folder was moved to (a rename keeps its identity, and its own change time is
   * not in it), so a tool can check what it took once it has it where nothing else reaches.
   */
  public static boolean isTree(String stamp) {
    return stamp.startsWith(TREE);
  }

  /** Whether a stamp says its path could not be read whole, so nothing can be bound to it. */
  public static boolean unreadable(String stamp) {
    return stamp.startsWith(UNREADABLE);
  }

  /** {@link #matches} for each of a call's paths, in order. */
  public static boolean allMatch(List<String> approved, List<String> now) {
    if (approved.size() != now.size()) return false;
    for (int i = 0; i < approved.size(); i++) {
      if (!matches(approved.get(i), now.get(i))) return false;
    }
    return true;
  }

  private static String fileLine(String identity, int type, Map<String, Object> a) {
    return "file " + identity + " " + type + " " + attribute(a, "size") + " "
        + nanos(attribute(a, "ctime")) + " " + nanos(attribute(a, "lastModifiedTime"));
  }

  /**
   * Everything in a folder that goes with it: each entry's name below it, identity and times, in
   * the order the walk meets them (the same for a folder that has not changed), digested as they
   * come. The folder's own change time is left out: its entries' lines and its modification time
   * say what changed in it. Folders on other devices in it are walked too: they go with it. An
   * entry that cannot be read, or more entries than {@link #MAX_TREE_ENTRIES}, make the stamp
   * match nothing.
   */
  private static String tree(Path folder, String identity) {
    MessageDigest d = sha256();
    int[] count = {0};
    boolean[] whole = {true};
    try {
      Files.walkFileTree(folder, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs)
            throws IOException {
          return add(dir) == null ? FileVisitResult.TERMINATE : FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
          return add(file) == null ? FileVisitResult.TERMINATE : FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFileFailed(Path file, IOException e) {
          whole[0] = false;
          return FileVisitResult.TERMINATE;
        }

        private @org.jspecify.annotations.Nullable Map<String, Object> add(Path p)
            throws IOException {
          if (++count[0] > MAX_TREE_ENTRIES) {
            whole[0] = false;
            return null;
          }
          Map<String, Object> a = Files.readAttributes(p, ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
          String id = attribute(a, "dev") + ":" + attribute(a, "ino");
          int type = (Integer) attribute(a, "mode") & S_IFMT;
          String line = p.equals(folder)
              ? "root " + id + " " + nanos(attribute(a, "lastModifiedTime"))
              : folder.relativize(p) + "\0" + fileLine(id, type, a);
          d.update((line + "\n").getBytes(StandardCharsets.UTF_8));
          return a;
        }
      });
    } catch (IOException | RuntimeException e) {
      return unmatched();
    }
    if (!whole[0]) return unmatched();
    return TREE
        + identified(
            identity,
            HexFormat.of()
                .formatHex(
                    d.digest("tree ".concat(identity).getBytes(StandardCharsets.UTF_8)), 0, 12));
  }

  /** {@code <identity>.<state>}: the identity digested apart, so a change can say which changed. */
  private static String identified(String identity, String state) {
    return HexFormat.of()
            .formatHex(sha256().digest(("id " + identity).getBytes(StandardCharsets.UTF_8)), 0, 8)
        + "."
        + state;
  }

  /** The unix view always answers the attributes asked for. */
  private static Object attribute(Map<String, Object> a, String name) {
    return java.util.Objects.requireNonNull(a.get(name), name);
  }

  private static String nanos(Object time) {
    java.time.Instant t = ((FileTime) time).toInstant();
    return t.getEpochSecond() + "." + t.getNano();
  }

  /**
   * A stamp that matches no other, not even itself read again: what could not be read is never
   * approved ({@link #unreadable}).
   */
  public static String unmatched() {
    byte[] nonce = new byte[12];
    RANDOM.nextBytes(nonce);
    return UNREADABLE + HexFormat.of().formatHex(nonce);
  }

  /** Opaque on the wire: a client compares stamps, it never reads one. */
  private static String digest(String s) {
    return HexFormat.of().formatHex(sha256().digest(s.getBytes(StandardCharsets.UTF_8)), 0, 12);
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
