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
}
