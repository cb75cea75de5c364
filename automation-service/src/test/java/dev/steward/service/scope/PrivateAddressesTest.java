package dev.steward.service.scope;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

/** Addresses inside the machine or its network, in every spelling a resolver or a URL gives them. */
class PrivateAddressesTest {

  private static boolean privateAddress(String literal) throws Exception {
    return HostScope.isPrivate(InetAddress.getByName(literal));
  }

  @Test
  void private_loopback_link_local_and_reserved_addresses_are_private_however_written()
      throws Exception {
    for (String a : new String[] {
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "0.1.2.3",
      "198.18.0.1",
      "198.19.255.255",
      "240.0.0.1",
      "255.255.255.255",
      "::1",
      "::",
      "fe80::1",
      "fc00::1",
      "fd12:3456::1",
      "::ffff:127.0.0.1",
      "::127.0.0.1",
      "::10.0.0.5",
      "::ffff:169.254.169.254",
      "64:ff9b::a9fe:a9fe",
      "64:ff9b::10.0.0.1",
      "2002:c0a8:0101::1",
      "2002:7f00:0001::"
    }) {
      assertTrue(privateAddress(a), a);
    }
  }

  @Test
  void public_addresses_are_not() throws Exception {
    for (String a : new String[] {
      "93.184.216.34",
      "8.8.8.8",
      "1.1.1.1",
      "198.20.0.1",
      "172.32.0.1",
      "100.128.0.1",
      "2606:4700:4700::1111",
      "64:ff9b::808:808",
      "2002:5db8:d822::1"
    }) {
      assertFalse(privateAddress(a), a);
    }
  }
}
