package dev.steward.service.scope;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.steward.protocol.policy.PolicyDocument;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.IntUnaryOperator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The scope rules against hostile input: a path that resolves lies inside an allowed root, never
 * in Steward's own folders or a refused place, whatever its spelling (.., links, case, ~,
 * backslashes, NUL); a URL that passes is http(s), names no user and no private address in any of
 * the spellings a resolver or a browser reads as one. Seeded cases in every build; coverage-guided
 * runs under {@code ./steward fuzz}.
 */
class ScopePropertiesTest {

  private static final Fixture F = Fixture.create();

  /** A tree with a read-write root, a read-only root, places outside, a link out, Steward's folders. */
  private record Fixture(Path base, Path root, Path ro, Path outside, Path own, PathScope scope) {
    static Fixture create() {
      try {
        Path base = Files.createTempDirectory("steward-scope-props-").toRealPath();
        Path root = Files.createDirectories(base.resolve("root"));
        Path ro = Files.createDirectories(base.resolve("ro"));
        Path outside = Files.createDirectories(base.resolve("outside"));
        Path own = Files.createDirectories(root.resolve("steward/config"));
        Files.createDirectories(root.resolve("a/.ssh"));
        Files.createDirectories(root.resolve(".config/google-chrome"));
        Files.createSymbolicLink(root.resolve("link-out"), outside);
        Files.createSymbolicLink(root.resolve("link-in"), root.resolve("a"));
        Files.createSymbolicLink(root.resolve("link-own"), own);
        PathScope scope = PathScope.of(
            List.of(
                new PolicyDocument.PathRoot(root.toString(), "read_write"),
                new PolicyDocument.PathRoot(ro.toString(), "read")),
            List.of(own),
            root);
        return new Fixture(base, root, ro, outside, own, scope);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
  }

  private static final String[] PIECES = {
    "..",
    ".",
    "a",
    "A",
    ".ssh",
    ".SSH",
    "link-out",
    "link-in",
    "link-own",
    "steward",
    "STEWARD",
    "config",
    "Config",
    ".config",
    "google-chrome",
    "outside",
    "root",
    "ro",
    "x.txt",
    "",
    "~",
    "\\",
    "C:",
    "é",
    ".ssh.",
    ".ssh ",
    "b\u0000"
  };

  static String path(IntUnaryOperator pick) {
    StringBuilder b = new StringBuilder();
    switch (pick.applyAsInt(4)) {
      case 0 -> b.append(F.root());
      case 1 -> b.append(F.base());
      case 2 -> b.append("~");
      default -> {}
    }
    for (int n = pick.applyAsInt(7); n >= 0; n--) {
      if (b.length() > 0 || pick.applyAsInt(2) == 0) b.append('/');
      b.append(PIECES[pick.applyAsInt(PIECES.length)]);
    }
    return b.toString();
  }

  /** Whatever {@code requested} is, a path the scope hands out lies where the rules say. */
  static void resolvedPathsStayInside(String requested, Access access) {
    ResolvedPath p;
    try {
      p = F.scope().resolve(requested, access);
    } catch (ScopeDenied e) {
      return;
    } catch (RuntimeException e) {
      throw new AssertionError("resolve threw " + e + " for " + requested, e);
    }
    Path real = p.real();
    if (!real.isAbsolute() || !real.normalize().equals(real))
      throw new AssertionError("not a normal absolute path: " + real);
    boolean inRoot = real.startsWith(F.root()) || real.startsWith(F.ro());
    if (!inRoot) throw new AssertionError(requested + " resolved outside the roots: " + real);
    if (access != Access.READ && !real.startsWith(F.root()))
      throw new AssertionError(requested + " writes into a read-only root: " + real);
    if (foldedStartsWith(real, F.own())) {
      throw new AssertionError(
          dev.steward.protocol.json.Json.write(requested) + " reached Steward's own folder: "
              + dev.steward.protocol.json.Json.write(real.toString()));
    }
    String previous = "";
    for (Path part : real) {
      String name = part.toString().toLowerCase(Locale.ROOT).replaceAll("[. ]+$", "");
      if (name.equals(".ssh"))
        throw new AssertionError(requested + " reached a refused folder: " + real);
      if (previous.equals(".config") && name.equals("google-chrome"))
        throw new AssertionError(requested + " reached a browser profile: " + real);
      previous = name;
    }
    // The fixture's root is also the user's home, where .config lives.
    boolean homeConfig = real.getFileName() != null
        && F.root().equals(real.getParent())
        && real.getFileName()
            .toString()
            .toLowerCase(Locale.ROOT)
            .replaceAll("[. ]+$", "")
            .equals(".config");
    if (access == Access.REMOVE && (F.own().startsWith(real) || homeConfig)) {
      throw new AssertionError(
          requested + " may be removed though it holds a refused place: " + real);
    }
  }

  /** {@code path} lies in {@code folder}, comparing names case-folded, one by one (never as strings). */
  private static boolean foldedStartsWith(Path path, Path folder) {
    if (path.getNameCount() < folder.getNameCount()) return false;
    for (int i = 0; i < folder.getNameCount(); i++) {
      String a = path.getName(i).toString().toLowerCase(Locale.ROOT).replaceAll("[. ]+$", "");
      String b = folder.getName(i).toString().toLowerCase(Locale.ROOT);
      if (!a.equals(b)) return false;
    }
    return true;
  }

  private static final String[] URL_PIECES = {
    "http://",
    "https://",
    "file:",
    "javascript:",
    "HTTP://",
    "ftp://",
    "user@",
    "u:p@",
    "127.0.0.1",
    "127.1",
    "0x7f.1",
    "0x7f000001",
    "2130706433",
    "017700000001",
    "0177.0.0.1",
    "[::1]",
    "[::ffff:127.0.0.1]",
    "[0:0:0:0:0:0:0:1]",
    "10.0.0.1",
    "169.254.169.254",
    "192.168.1.1",
    "172.16.0.1",
    "0.0.0.0",
    "0",
    "localhost",
    "LOCALHOST",
    "a.localhost",
    "example.org",
    "xn--n3h.com",
    "b\u00fccher.de",
    ":80",
    ":8080",
    "/",
    "/path",
    "?q=1",
    "#x",
    "%2e",
    "@",
    ".",
    "\\",
    "\t",
    " ",
    "%00",
    "[fd00::1]",
    "100.64.0.1"
  };

  static String url(IntUnaryOperator pick) {
    StringBuilder b = new StringBuilder();
    for (int n = pick.applyAsInt(6) + 1; n > 0; n--)
      b.append(URL_PIECES[pick.applyAsInt(URL_PIECES.length)]);
    return b.toString();
  }

  /** A secret spelled in characters that draw blank would show in the dialog as nothing. */
  @org.junit.jupiter.api.Test
  void a_url_with_characters_that_draw_nothing_is_refused() {
    for (String hidden :
        List.of("\u3164", "\u2800", "\u034f", "\u200b", new String(Character.toChars(0x1D173)))) {
      ScopeDenied e = org.junit.jupiter.api.Assertions.assertThrows(
          ScopeDenied.class, () -> UrlCheck.check("https://a.example/?x=" + hidden, false));
      org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("draws nothing"));
    }
  }

  /** A URL that passes the static check, when private hosts are not allowed. */
  static void passedUrlsAreSafe(String url) {
    URI uri;
    try {
      uri = UrlCheck.check(url, false);
    } catch (ScopeDenied e) {
      return;
    } catch (RuntimeException e) {
      throw new AssertionError("the check threw " + e + " for " + url, e);
    }
    String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https"))
      throw new AssertionError("scheme " + scheme + " passed: " + url);
    if (uri.getRawUserInfo() != null) throw new AssertionError("a user name passed: " + url);
    if (url.codePoints().anyMatch(dev.steward.protocol.util.ShownText::isHidden))
      throw new AssertionError("a character that draws nothing passed: " + url);
    String host = HostScope.asciiHost(uri);
    if (host.equals("localhost") || host.endsWith(".localhost"))
      throw new AssertionError("localhost passed: " + url);
    java.net.InetAddress a = Ipv4Spellings.address(host);
    if (a != null && HostScope.isPrivate(a))
      throw new AssertionError("a private address spelled " + host + " passed: " + url);
    if (host.contains(":")) {
      try {
        if (HostScope.isPrivate(java.net.InetAddress.getByName(host)))
          throw new AssertionError("a private IPv6 address passed: " + url);
      } catch (java.net.UnknownHostException e) {
        throw new AssertionError("an unreadable IPv6 host passed: " + url);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void a_resolved_path_is_always_inside_the_rules(long seed) {
    Random random = new Random(seed);
    for (int i = 0; i < 4000; i++) {
      String p = path(random::nextInt);
      for (Access access : Access.values()) resolvedPathsStayInside(p, access);
    }
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void a_url_that_passes_is_always_safe(long seed) {
    Random random = new Random(seed);
    for (int i = 0; i < 10000; i++) passedUrlsAreSafe(url(random::nextInt));
  }

  @FuzzTest(maxDuration = "10m")
  void fuzz_path_scope(FuzzedDataProvider data) {
    String p = data.consumeBoolean()
        ? path(bound -> data.consumeInt(0, bound - 1))
        : data.consumeRemainingAsString();
    for (Access access : Access.values()) resolvedPathsStayInside(p, access);
  }

  @FuzzTest(maxDuration = "10m")
  void fuzz_url_check(FuzzedDataProvider data) {
    passedUrlsAreSafe(
        data.consumeBoolean()
            ? url(bound -> data.consumeInt(0, bound - 1))
            : data.consumeRemainingAsString());
  }
}
