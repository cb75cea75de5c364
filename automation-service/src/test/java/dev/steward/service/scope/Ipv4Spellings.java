package dev.steward.service.scope;

import java.net.InetAddress;
import java.net.UnknownHostException;
import org.jspecify.annotations.Nullable;

/**
 * How C's {@code inet_aton} (and so resolvers and browsers) read a host of one to four numbers in
 * decimal, octal ({@code 0177}) or hex ({@code 0x7f}) — written here independently of the rule it
 * checks.
 */
final class Ipv4Spellings {

  private Ipv4Spellings() {}

  static @Nullable InetAddress address(String host) {
    String[] parts = host.split("\\.", -1);
    if (parts.length > 4) return null;
    long[] values = new long[parts.length];
    for (int i = 0; i < parts.length; i++) {
      String p = parts[i];
      if (p.isEmpty()) return null;
      try {
        if (p.startsWith("0x") || p.startsWith("0X"))
          values[i] = p.length() == 2 ? 0 : Long.parseLong(p.substring(2), 16);
        else if (p.length() > 1 && p.startsWith("0")) values[i] = Long.parseLong(p.substring(1), 8);
        else values[i] = Long.parseLong(p);
      } catch (NumberFormatException e) {
        return null;
      }
      if (values[i] < 0) return null;
    }
    long address = 0;
    for (int i = 0; i < values.length - 1; i++) {
      if (values[i] > 255) return null;
      address = address << 8 | values[i];
    }
    int rest = 4 - (values.length - 1);
    long last = values[values.length - 1];
    if (last >= 1L << (8 * rest)) return null;
    address = address << (8 * rest) | last;
    byte[] b = {
      (byte) (address >> 24), (byte) (address >> 16), (byte) (address >> 8), (byte) address
    };
    try {
      return InetAddress.getByAddress(b);
    } catch (UnknownHostException e) {
      return null;
    }
  }
}
