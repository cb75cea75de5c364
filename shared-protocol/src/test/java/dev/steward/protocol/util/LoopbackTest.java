package dev.steward.protocol.util;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LoopbackTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "localhost",
        "LocalHost",
        "127.0.0.1",
        "127.8.9.10",
        "::1",
        "[::1]",
        "0:0:0:0:0:0:0:1"
      })
  void this_machine(String host) {
    assertTrue(Loopback.host(host), host);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "127.0.0.1.evil.example",
        "127.evil",
        "localhost.evil.example",
        "evil.localhost",
        "10.0.0.1",
        "0.0.0.0",
        "::",
        "example.org",
        "",
        "[::2]",
        "1.2.3.4.5"
      })
  void another_or_a_name(String host) {
    assertFalse(Loopback.host(host), host);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "localhost",
        "localhost.",
        "LOCALHOST..",
        "evil.localhost",
        "a.b.localhost.",
        "127.0.0.1",
        "127.0.0.1.",
        "0.0.0.0",
        "0",
        "0x7f.1",
        "0x7f000001",
        "2130706433",
        "0177.0.0.1",
        "127.1",
        "1.2.3",
        "::",
        "[::]",
        "::1",
        "::ffff:127.0.0.1",
        "::127.0.0.1",
        "[::ffff:7f00:1]",
        "[::1%1]",
        "[::1%lo]",
        "::%1",
        "0x",
        "08"
      })
  void could_name_this_machine(String host) {
    assertTrue(Loopback.mayName(host), host);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "example.org",
        "127.0.0.1.evil.example",
        "localhost.evil.example",
        "93.184.216.34",
        "10.0.0.1",
        "::2",
        "2001:db8::1",
        "::ffff:93.184.216.34",
        "1.2.3.4.5",
        ""
      })
  void names_another_machine(String host) {
    assertFalse(Loopback.mayName(host), host);
  }
}
