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
    String host = asciiHost(uri);
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
    boolean uniqueLocal6 = b.length == 16 && (b[0] & 0xfe) == 0xfc;
    boolean carrierNat = b.length == 4 && (b[0] & 0xff) == 100 && (b[1] & 0xc0) == 64;
    return a.isLoopbackAddress()
        || a.isSiteLocalAddress()
        || a.isLinkLocalAddress()
        || a.isAnyLocalAddress()
        || a.isMulticastAddress()
        || uniqueLocal6
        || carrierNat;
  }
}
