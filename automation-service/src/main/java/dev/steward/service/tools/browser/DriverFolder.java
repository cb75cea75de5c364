package dev.steward.service.tools.browser;

import com.microsoft.playwright.impl.driver.Driver;
import com.microsoft.playwright.impl.driver.jar.DriverJar;
import dev.steward.service.util.PlaywrightDriver;
import dev.steward.service.util.Trees;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * Where Playwright's driver (a Node.js of ~130 MB and its scripts, which the service runs) lies
 * unpacked. Left to itself Playwright unpacks it from its jar at every start of the browser, into
 * a temporary folder it deletes on exit: ~0.7 s of the first visit after each start of the
 * service. It is unpacked once instead, into a folder named for the jars it came from, and found
 * there by every later start; another version's folder, and what an unpacking cut short left,
 * go. The folder is under Steward's data folder, the user's alone: hidden from the programs
 * Steward runs (an MCP server in its sandbox), refused to every tool (ADR 23).
 */
final class DriverFolder {

  private static final Logger LOG = Logger.getLogger(DriverFolder.class.getName());

  /** Names a folder to unpack into instead of the home's: the tests' JVM, which runs many. */
  static final String PARENT_PROPERTY = "steward.browser.driver.parent";

  private static final String PREFIX = "playwright-";
  private static final String UNPACKING = ".unpacking-";

  /** Written last, once all else is on disk: it holds the size {@code node} must have. */
  private static final String MARK = ".unpacked";

  /** An unpacking this old was cut short (a killed process); a running one takes ~1 s. */
  private static final Duration ABANDONED = Duration.ofHours(1);

  private static final String NODE =
      System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("windows")
          ? "node.exe"
          : "node";

  private DriverFolder() {}

  /**
   * The unpacked driver, made if need be, and named to Playwright for this JVM (whose driver is
   * one: Playwright keeps the first it starts). A folder already named, as the package names the
   * one it ships, is used as it is.
   */
  static synchronized Path use(Path inData) throws IOException {
    String named = System.getProperty(PlaywrightDriver.DIR_PROPERTY);
    Path mine = unpackedHere;
    if (named != null && mine != null && mine.toString().equals(named)) {
      // Named by this JVM before (the browser starts again after it stopped when idle); one
      // deleted since is unpacked again, to the same place.
      if (!complete(mine)) unpacked(Objects.requireNonNull(mine.getParent()), key());
      return mine;
    }
    if (named != null) {
      Path shipped = Path.of(named);
      if (!Files.isExecutable(shipped.resolve(NODE)))
        throw new IOException("Playwright's driver is not in " + shipped);
      removeOthers(inData, null);
      return shipped;
    }
    String parent = System.getProperty(PARENT_PROPERTY);
    Path dir = unpacked(parent != null ? Path.of(parent) : inData, key());
    System.setProperty(PlaywrightDriver.DIR_PROPERTY, dir.toString());
    unpackedHere = dir;
    return dir;
  }

  /** The folder this JVM unpacked and named, if it did. */
  private static @Nullable Path unpackedHere;

  /** {@code parent}'s folder for the driver named {@code key}, unpacked there first if missing. */
  static Path unpacked(Path parent, String key) throws IOException {
    Files.createDirectories(parent);
    Path dir = parent.resolve(PREFIX + key);
    if (!complete(dir)) {
      Path partial = Files.createTempDirectory(parent, UNPACKING);
      try {
        unpackTo(partial);
        // Another process may have finished the same while this one unpacked: its folder stands.
        if (!complete(dir)) {
          // A folder is seen whole or not at all: what is there is moved aside before it goes,
          // and the new one comes in by one rename.
          if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            Path aside = Files.createTempDirectory(parent, UNPACKING);
            Files.move(dir, aside.resolve("old"), StandardCopyOption.ATOMIC_MOVE);
            Trees.delete(aside);
          }
          try {
            Files.move(partial, dir, StandardCopyOption.ATOMIC_MOVE);
          } catch (IOException e) {
            if (!complete(dir)) throw e;
          }
        }
      } finally {
        Trees.delete(partial);
      }
    }
    removeOthers(parent, dir);
    return dir;
  }

  /** Whole: its mark is there and {@code node} has the size the mark holds. */
  static boolean complete(Path dir) {
    try {
      Path node = dir.resolve(NODE);
      return Files.isRegularFile(dir.resolve(MARK), LinkOption.NOFOLLOW_LINKS)
          && Files.isExecutable(node)
          && Files.isRegularFile(dir.resolve("package/cli.js"), LinkOption.NOFOLLOW_LINKS)
          && Files.readString(dir.resolve(MARK)).strip().equals(Long.toString(Files.size(node)));
    } catch (IOException e) {
      return false;
    }
  }

  private static void unpackTo(Path dir) throws IOException {
    try {
      DriverJar.installDriverTo(dir);
    } catch (URISyntaxException | RuntimeException e) {
      throw new IOException("Playwright's driver could not be unpacked from its jars: " + e, e);
    }
    Path node = dir.resolve(NODE);
    if (!Files.isExecutable(node) || !Files.isRegularFile(dir.resolve("package/cli.js")))
      throw new IOException("Playwright's driver unpacked without " + NODE + " or package/cli.js");
    // On disk before the mark is, so a machine that stops just after cannot leave a folder that
    // looks whole and is not.
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path f : all.filter(Files::isRegularFile).toList()) force(f);
    }
    Path mark = Files.writeString(dir.resolve(MARK), Long.toString(Files.size(node)));
    force(mark);
  }

  private static void force(Path file) throws IOException {
    try (FileChannel c = FileChannel.open(file, StandardOpenOption.WRITE)) {
      c.force(true);
    }
  }

  /**
   * Older versions' folders, Playwright's own temporary ones, and abandoned unpackings; a folder
   * that cannot go now is left for the next start.
   */
  private static void removeOthers(Path parent, @Nullable Path kept) {
    if (!Files.isDirectory(parent, LinkOption.NOFOLLOW_LINKS)) return;
    Instant abandoned = Instant.now().minus(ABANDONED);
    List<Path> entries;
    try (Stream<Path> list = Files.list(parent)) {
      entries = list.toList();
    } catch (IOException e) {
      return;
    }
    for (Path p : entries) {
      String name = p.getFileName().toString();
      try {
        boolean stale = name.startsWith(UNPACKING)
            ? Files.getLastModifiedTime(p, LinkOption.NOFOLLOW_LINKS)
                .toInstant()
                .isBefore(abandoned)
            : name.startsWith(PREFIX) && !p.equals(kept);
        if (stale) Trees.delete(p);
      } catch (IOException e) {
        LOG.log(Level.FINE, "left for the next start: " + p, e);
      }
    }
  }

  /**
   * The driver's version and a digest of the jars it comes from (their places, sizes and times):
   * a new jar, even of the same version, is unpacked anew.
   */
  static String key() throws IOException {
    String version = Driver.class.getPackage().getImplementationVersion();
    MessageDigest digest = sha256();
    for (@Nullable Path jar : new @Nullable Path[] {codeSource(Driver.class), bundle()}) {
      if (jar == null) continue;
      digest.update(jar.toAbsolutePath().toString().getBytes(StandardCharsets.UTF_8));
      digest.update((Files.size(jar) + ":" + Files.getLastModifiedTime(jar).toMillis())
          .getBytes(StandardCharsets.UTF_8));
    }
    String hash = HexFormat.of().formatHex(digest.digest(), 0, 6);
    return (version == null ? "" : version + "-") + hash;
  }

  private static @Nullable Path codeSource(Class<?> type) {
    try {
      var source = type.getProtectionDomain().getCodeSource();
      return source == null ? null : Path.of(source.getLocation().toURI());
    } catch (URISyntaxException | RuntimeException e) {
      return null;
    }
  }

  /** The jar that holds the platform's Node.js ({@code jar:file:…!/driver/…}). */
  private static @Nullable Path bundle() {
    try {
      String uri = DriverJar.getDriverResourceURI().toString();
      if (!uri.startsWith("jar:")) return null;
      int bang = uri.indexOf("!/");
      return Path.of(new URI(uri.substring(4, bang < 0 ? uri.length() : bang)));
    } catch (URISyntaxException | RuntimeException e) {
      return null;
    }
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
