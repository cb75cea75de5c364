package dev.steward.service.scope;

import dev.steward.protocol.policy.PolicyDocument;
import java.net.IDN;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;

/**
 * SPEC §5's host scope for URLs the service opens itself: http(s) only, and (unless the policy
 * allows private hosts) no loopback, private or link-local address — checked on the literal and
 * again on every address the name resolves to. Allowlisted hosts run without a token; an entry
 * starting with {@code *.} also covers the subdomains.
 */
public final class HostScope {

  private final List<String> allow;
  private final boolean allowPrivate;
  private final HostResolver resolver;

  public HostScope(PolicyDocument.Hosts hosts, HostResolver resolver) {
    this.allow = hosts.allow().stream().map(h -> h.toLowerCase(Locale.ROOT)).toList();
    this.allowPrivate = hosts.allowPrivate();
    this.resolver = resolver;
  }

  /** The URL, normalised, or why it is refused before anything is fetched. */
  public URI check(String url) throws ScopeDenied {
    return UrlCheck.check(url, allowPrivate);
  }

  /** Whether the host is on the user's list (so no token is needed to open it). */
  public boolean allowlisted(URI uri) {
    return allowlistedHost(asciiHost(uri));
  }

  /** {@link #allowlisted}, for a host name already in its ASCII, lower-case form. */
  public boolean allowlistedHost(String host) {
    for (String entry : allow) {
      if (entry.startsWith("*.")) {
        String base = entry.substring(2);
        if (host.equals(base) || host.endsWith("." + base)) return true;
      } else if (host.equals(entry)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Refuses a host whose name resolves to a loopback, private or link-local address (a public name
   * pointing inside the network) unless the policy allows private hosts. A name that does not
   * resolve at all passes: there is nothing to reach, and offline machines can still be asked.
   */
  public void checkResolved(URI uri) throws ScopeDenied {
    if (allowPrivate) return;
    String host = asciiHost(uri);
    InetAddress[] addresses;
    try {
      addresses = resolver.resolve(host);
    } catch (UnknownHostException e) {
      return; // no address, so no private one: the connection itself will fail and say so
    }
    for (InetAddress a : addresses) {
      if (isPrivate(a)) {
        throw new ScopeDenied("\"" + host + "\" resolves to " + a.getHostAddress()
            + ", a loopback, private or link-local address; your policy does not allow those");
      }
    }
  }

  /**
   * The one address to connect to for {@code host} (an address literal as it is; a name looked up
   * once): the first the resolver gives, refused when it is private and the policy does not allow
   * those, or when the name has none.
   */
  public InetAddress address(String host) throws ScopeDenied {
    InetAddress[] addresses;
    try {
      addresses = resolver.resolve(host);
    } catch (UnknownHostException e) {
      throw new ScopeDenied.NotFound(host);
    }
    if (addresses.length == 0) throw new ScopeDenied.NotFound(host);
    InetAddress a = addresses[0];
    if (!allowPrivate && isPrivate(a)) {
      throw new ScopeDenied("\"" + host + "\" resolves to " + a.getHostAddress()
          + ", a loopback, private or link-local address; your policy does not allow those");
    }
    return a;
  }

  public boolean allowsPrivate() {
    return allowPrivate;
  }

  public static String asciiHost(URI uri) {
    String host = uri.getHost() == null ? "" : uri.getHost();
    if (host.startsWith("[")) host = host.substring(1, host.length() - 1);
    return IDN.toASCII(host, IDN.ALLOW_UNASSIGNED).toLowerCase(Locale.ROOT);
  }

  static boolean isPrivate(InetAddress a) {
    byte[] b = a.getAddress();
    if (b.length == 16) {
      byte[] inner = embeddedIpv4(b);
      if (inner != null && isPrivate4(inner)) return true;
    }
    boolean uniqueLocal6 = b.length == 16 && (b[0] & 0xfe) == 0xfc;
    return a.isLoopbackAddress()
        || a.isSiteLocalAddress()
        || a.isLinkLocalAddress()
        || a.isAnyLocalAddress()
        || a.isMulticastAddress()
        || uniqueLocal6
        || (b.length == 4 && isPrivate4(b));
  }

  /**
   * IPv4 ranges that are not the public internet beyond what {@link InetAddress} names: "this
   * network" (0/8), carrier-grade NAT (100.64/10), benchmarking (198.18/15), reserved (240/4).
   */
  private static boolean isPrivate4(byte[] b) {
    int first = b[0] & 0xff;
    int second = b[1] & 0xff;
    return first == 0
        || first == 10
        || first == 127
        || (first == 169 && second == 254)
        || (first == 172 && (second & 0xf0) == 16)
        || (first == 192 && second == 168)
        || (first == 100 && (second & 0xc0) == 64)
        || (first == 198 && (second & 0xfe) == 18)
        || first >= 224;
  }

  /**
   * The IPv4 address an IPv6 one carries and a network may route to: IPv4-compatible
   * ({@code ::a.b.c.d}), NAT64 ({@code 64:ff9b::/96}) and 6to4 ({@code 2002::/16}); null for others.
   * (IPv4-mapped ones, {@code ::ffff:a.b.c.d}, Java reads as IPv4 already.)
   */
  private static byte @org.jspecify.annotations.Nullable [] embeddedIpv4(byte[] b) {
    boolean zeroTo11 = true;
    for (int i = 0; i < 12; i++) zeroTo11 &= b[i] == 0;
    boolean nat64 = b[0] == 0 && b[1] == 0x64 && (b[2] & 0xff) == 0xff && (b[3] & 0xff) == 0x9b;
    for (int i = 4; nat64 && i < 12; i++) nat64 = b[i] == 0;
    if (zeroTo11 || nat64) return java.util.Arrays.copyOfRange(b, 12, 16);
    if ((b[0] & 0xff) == 0x20 && (b[1] & 0xff) == 0x02)
      return java.util.Arrays.copyOfRange(b, 2, 6);
    return null;
  }
}
