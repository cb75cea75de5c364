package dev.steward.service.tools.browser;

import com.microsoft.playwright.impl.driver.Driver;
import com.microsoft.playwright.impl.driver.jar.DriverJar;
import dev.steward.service.util.Trees;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
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

  /** Playwright's own: a folder that holds {@code node} and {@code package/cli.js}. */
  static final String PLAYWRIGHT_DIR_PROPERTY = "playwright.cli.dir";

  /** Names a folder to unpack into instead of the home's (the tests' JVM, which runs many). */
  static final String PARENT_PROPERTY = "playwright.driver.tmpdir";

  private static final String PREFIX = "playwright-";
  private static final String UNPACKING = ".unpacking-";

  /** An unpacking this old was cut short (a killed process); a running one takes ~1 s. */
  private static final Duration ABANDONED = Duration.ofHours(1);

  private DriverFolder() {}

  /**
   * The unpacked driver, made if need be, and named to Playwright for this JVM (whose driver is
   * one: Playwright keeps the first it starts). A folder already named, as the package may name
   * one it ships, is used as it is.
   */
  static synchronized Path use(Path inData) throws IOException {
    String named = System.getProperty(PLAYWRIGHT_DIR_PROPERTY);
    if (named != null) return Path.of(named);
    String parent = System.getProperty(PARENT_PROPERTY);
    Path dir = unpacked(parent != null ? Path.of(parent) : inData, key());
    System.setProperty(PLAYWRIGHT_DIR_PROPERTY, dir.toString());
    return dir;
  }

  /** {@code parent}'s folder for the driver named {@code key}, unpacked there first if missing. */
  static Path unpacked(Path parent, String key) throws IOException {
    Files.createDirectories(parent);
    Path dir = parent.resolve(PREFIX + key);
    if (!complete(dir)) {
      Path partial = Files.createTempDirectory(parent, UNPACKING);
      try {
        unpackTo(partial);
        if (!complete(partial))
          throw new IOException("Playwright's driver unpacked without node or package/cli.js");
        // A folder is seen whole or not at all: a later start never runs a half-unpacked one.
        if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) Trees.delete(dir);
        try {
          Files.move(partial, dir, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
          // another process unpacked the same driver first; it is as good as this one
          if (!complete(dir)) throw e;
        }
      } finally {
        Trees.delete(partial);
      }
    }
    removeOthers(parent, dir);
    return dir;
  }

  private static boolean complete(Path dir) {
    return Files.isExecutable(dir.resolve("node"))
        && Files.isRegularFile(dir.resolve("package/cli.js"), LinkOption.NOFOLLOW_LINKS);
  }

  private static void unpackTo(Path dir) throws IOException {
    try {
      DriverJar.installDriverTo(dir);
    } catch (URISyntaxException e) {
      throw new IOException("Playwright's driver could not be found on the class path", e);
    }
  }

  /** Older versions' folders, Playwright's own temporary ones, and abandoned unpackings. */
  private static void removeOthers(Path parent, Path kept) throws IOException {
    Instant abandoned = Instant.now().minus(ABANDONED);
    try (var entries = Files.newDirectoryStream(parent)) {
      for (Path p : entries) {
        String name = p.getFileName().toString();
        boolean stale = name.startsWith(UNPACKING)
            ? Files.getLastModifiedTime(p, LinkOption.NOFOLLOW_LINKS)
                .toInstant()
                .isBefore(abandoned)
            : name.startsWith(PREFIX) && !p.equals(kept);
        if (stale) Trees.delete(p);
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
      return Path.of(new java.net.URI(uri.substring(4, bang < 0 ? uri.length() : bang)));
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
