package dev.steward.service.scope;

import java.net.IDN;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * The static part of SPEC §5's host rules, for a URL handed to an app: http(s) only, no user
 * information ({@code https://ok@evil}), no control characters, and no loopback, private or
 * link-local address literals unless the policy allows private hosts. (The browser tool adds DNS
 * and redirect checks on top.)
 */
public final class UrlCheck {

  private UrlCheck() {}

  public static boolean looksLikeUrl(String text) {
    return text.matches("(?i)^[a-z][a-z0-9+.-]*:.*") && !text.matches("(?i)^[a-z]:[\\\\/].*");
  }

  /** The normalised URL, or a refusal that says why. */
  public static URI check(String text, boolean allowPrivate) throws ScopeDenied {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 0x20 || c == 0x7f) throw new ScopeDenied("the URL contains a control character");
    }
    // What draws nothing could carry data past the user's eyes in the dialog; a page that means
    // such a character writes it percent-encoded.
    if (text.codePoints().anyMatch(dev.steward.protocol.util.ShownText::isHidden))
      throw new ScopeDenied(
          "the URL contains a character that draws nothing (percent-encode it if it is meant)");
    URI uri;
    try {
      uri = new URI(text).normalize();
    } catch (URISyntaxException e) {
      throw new ScopeDenied("not a valid URL: " + e.getReason());
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw new ScopeDenied("only http and https URLs are allowed, not \"" + scheme + ":\"");
    }
    if (uri.getRawUserInfo() != null) {
      throw new ScopeDenied(
          "URLs with a user name (user@host) are refused: they hide the real host");
    }
    String host = uri.getHost();
    if (host == null || host.isEmpty()) throw new ScopeDenied("the URL has no host");
    String ascii;
    try {
      ascii = IDN.toASCII(
              host.startsWith("[") ? host.substring(1, host.length() - 1) : host,
              IDN.ALLOW_UNASSIGNED)
          .toLowerCase(Locale.ROOT);
    } catch (IllegalArgumentException e) {
      throw new ScopeDenied("\"" + host + "\" is not a host name this service can read");
    }
    if (numericButNotDottedQuad(ascii)) {
      // Browsers and C resolvers read 0177.0.0.1, 0x7f.1 and 2130706433 as 127.0.0.1, where Java
      // reads some of them otherwise: an address is taken only in the one spelling all agree on.
      throw new ScopeDenied(
          "\"" + host
              + "\" is an address in an unusual spelling; write it as four decimal numbers (like 93.184.216.34)");
    }
    if (!allowPrivate && isPrivateLiteral(ascii)) {
      throw new ScopeDenied("\"" + host
          + "\" is a loopback, private or link-local address; your policy does not allow those");
    }
    if (!allowPrivate && (ascii.equals("localhost") || ascii.endsWith(".localhost"))) {
      throw new ScopeDenied(
          "\"" + host + "\" is this machine; your policy does not allow private hosts");
    }
    return uri;
  }

  /** One to four dot-separated numbers in decimal, octal or hex (inet_aton's forms), other than a.b.c.d in plain decimal. */
  static boolean numericButNotDottedQuad(String host) {
    String h = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
    if (h.isEmpty()) return false;
    String[] parts = h.split("\\.", -1);
    if (parts.length > 4) return false;
    boolean canonical = parts.length == 4;
    for (String p : parts) {
      if (!p.matches("0[x][0-9a-f]*|[0-9]+")) return false;
      if (!p.matches("0|[1-9][0-9]{0,2}") || Integer.parseInt(p) > 255) canonical = false;
    }
    return !canonical || !h.equals(host);
  }

  private static boolean isPrivateLiteral(String host) {
    if (!host.matches("[0-9.]+") && !host.contains(":")) return false;
    try {
      return HostScope.isPrivate(InetAddress.getByName(host)); // a literal: no DNS lookup happens
    } catch (java.net.UnknownHostException e) {
      return true; // an address we cannot read is not one we allow
    }
  }
}
