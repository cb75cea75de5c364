package dev.steward.protocol.util;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;

/** Whether a host names this machine by its spelling alone: never looked up. */
public final class Loopback {

  private Loopback() {}

  /**
   * {@code localhost}, or a literal loopback address ({@code 127.x.y.z}, {@code ::1}, with or
   * without brackets); {@code 127.0.0.1.example.com} is a name, not an address, and is not.
   */
  public static boolean host(String host) {
    String h = host.toLowerCase(Locale.ROOT);
    if (h.startsWith("[") && h.endsWith("]")) h = h.substring(1, h.length() - 1);
    if (h.equals("localhost")) return true;
    if (!h.matches("[0-9.]+") && !h.matches("[0-9a-f:.]+")) return false;
    if (!h.contains(":") && !h.matches("\\d{1,3}(\\.\\d{1,3}){3}")) return false;
    try {
      return InetAddress.getByName(h).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  /**
   * Whether a host could name this machine, read as resolvers and browsers read it: {@link #host},
   * and also a name with a trailing dot ({@code localhost.}), any name under {@code .localhost}
   * (RFC 6761), the unspecified address ({@code 0.0.0.0}, {@code ::}: a connection to it arrives
   * here), those with an IPv6 zone ({@code [::1%lo]}), an IPv6 address that carries a loopback or
   * unspecified IPv4 one, and an IPv4 address in
   * any of inet_aton's other spellings ({@code 0x7f.1}, {@code 2130706433}, {@code 0177.0.0.1}),
   * which is taken as this machine whatever it spells. For a rule that refuses what reaches this
   * machine, where {@link #host} is for one that allows it. Never looked up: a name that only DNS
   * points here is not caught.
   */
  public static boolean mayName(String host) {
    String h = host.toLowerCase(Locale.ROOT);
    if (h.startsWith("[") && h.endsWith("]")) h = h.substring(1, h.length() - 1);
    // An IPv6 zone ([::1%lo]) says which interface, not which address: connections still arrive.
    int zone = h.indexOf('%');
    if (zone >= 0 && h.contains(":")) h = h.substring(0, zone);
    while (h.endsWith(".")) h = h.substring(0, h.length() - 1);
    if (host(h) || h.equals("localhost") || h.endsWith(".localhost")) return true;
    if (h.contains(":")) return ipv6Here(h);
    String[] parts = h.split("\\.", -1);
    if (parts.length < 1 || parts.length > 4) return false;
    boolean dottedQuad = parts.length == 4;
    for (String p : parts) {
      if (!p.matches("0x[0-9a-f]*|[0-9]+")) return false;
      if (!p.matches("0|[1-9][0-9]{0,2}") || Integer.parseInt(p) > 255) dottedQuad = false;
    }
    if (!dottedQuad) return true;
    return parts[0].equals("127") || String.join("", parts).equals("0000");
  }

  private static boolean ipv6Here(String h) {
    if (!h.matches("[0-9a-f:.]+")) return false;
    byte[] b;
    try {
      b = InetAddress.getByName(h).getAddress(); // a literal: nothing is looked up
    } catch (UnknownHostException e) {
      return false;
    }
    if (b.length == 4) return (b[0] & 0xff) == 127 || (b[0] | b[1] | b[2] | b[3]) == 0;
    for (int i = 0; i < 12; i++) if (b[i] != 0) return false;
    // ::1, ::, and ::a.b.c.d carrying 127/8 or 0.0.0.0
    return (b[12] & 0xff) == 127 || (b[12] | b[13] | b[14]) == 0 && ((b[15] & 0xff) <= 1);
  }

  /** Whether a URL's host names this machine by its spelling alone; an unreadable URL does not. */
  public static boolean url(String url) {
    try {
      String host = java.net.URI.create(url).getHost();
      return host != null && host(host);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
