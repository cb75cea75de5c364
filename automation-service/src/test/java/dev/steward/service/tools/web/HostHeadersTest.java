package dev.steward.service.tools.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.service.tools.PackSecrets;
import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The headers configured for an address: where they go, what may be configured, how they are kept. */
class HostHeadersTest {

  @Test
  void an_address_is_kept_as_its_origin_and_only_that_origin_gets_the_headers() {
    HostHeaders h = HostHeaders.none().with("HTTPS://API.Example.org:443/", "Authorization", "t");
    assertEquals(Map.of("https://api.example.org", java.util.List.of("Authorization")), h.names());
    assertEquals(Map.of("Authorization", "t"), h.forUri(URI.create("https://api.example.org/x?q")));
    assertEquals(Map.of(), h.forUri(URI.create("http://api.example.org/x")), "another scheme");
    assertEquals(Map.of(), h.forUri(URI.create("https://api.example.org:8443/")), "another port");
    assertEquals(Map.of(), h.forUri(URI.create("https://evil.api.example.org/")), "a subdomain");
    assertEquals(Map.of(), h.forUri(URI.create("https://api.example.org.evil.test/")));
    HostHeaders v6 = HostHeaders.none().with("http://[::1]:8080", "X-Key", "k");
    assertEquals(Map.of("X-Key", "k"), v6.forUri(URI.create("http://[::1]:8080/a")));
  }

  @Test
  void a_path_a_user_name_another_scheme_or_a_connection_header_is_refused() {
    HostHeaders none = HostHeaders.none();
    for (String bad : new String[] {
      "https://api.example.org/v1", "https://me@api.example.org", "ftp://api.example.org",
      "api.example.org", "https://api.example.org/?a=b", "https://"
    }) {
      assertThrows(IllegalArgumentException.class, () -> none.with(bad, "X-Key", "v"), bad);
    }
    for (String name : new String[] {"Host", "content-length", "Connection", "Bad Name", ""}) {
      assertThrows(
          IllegalArgumentException.class, () -> none.with("https://a.example", name, "v"), name);
    }
    assertThrows(
        IllegalArgumentException.class,
        () -> none.with("https://a.example", "X-Key", "a\r\nHost: evil.test"));
    assertThrows(IllegalArgumentException.class, () -> none.with("https://a.example", "X", " "));
    for (String value : new String[] {"caf\u00e9", "a\u0001b", "a\u007fb", "\u2028"}) {
      assertThrows(
          IllegalArgumentException.class,
          () -> none.with("https://a.example", "X-Key", value),
          "a value the HTTP client would refuse: " + value);
    }
    for (String name : new String[] {"Proxy-Authorization", "Proxy-Foo", "Transfer-Encoding"}) {
      assertThrows(
          IllegalArgumentException.class, () -> none.with("https://a.example", name, "v"), name);
    }
  }

  @Test
  void a_name_is_replaced_whatever_its_case_removed_by_null_and_limited_per_address() {
    HostHeaders h = HostHeaders.none()
        .with("https://a.example", "Authorization", "one")
        .with("https://a.example", "authorization", "two");
    assertEquals(Map.of("authorization", "two"), h.forUri(URI.create("https://a.example/")));
    assertNull(h.with("https://a.example", "AUTHORIZATION", null).text(), "nothing left");
    HostHeaders full = HostHeaders.none();
    for (int i = 0; i < HostHeaders.MAX_PER_ORIGIN; i++) {
      full = full.with("https://a.example", "X-" + i, "v");
    }
    HostHeaders tenth = full;
    assertThrows(
        IllegalArgumentException.class, () -> tenth.with("https://a.example", "X-More", "v"));
  }

  @Test
  void what_is_kept_reads_back_and_a_broken_value_is_an_error_not_an_empty_set()
      throws IOException {
    String text = HostHeaders.none().with("https://a.example", "Cookie", "s=1").text();
    PackSecrets kept =
        (section, key) -> section.equals(HostHeaders.SECTION) && key.equals(HostHeaders.KEY)
            ? Optional.ofNullable(text)
            : Optional.empty();
    assertEquals(
        Map.of("Cookie", "s=1"), HostHeaders.read(kept).forUri(URI.create("https://a.example")));
    HostHeaders edited = HostHeaders.read((section, key) -> Optional.of(
        "{\"HTTPS://A.example:443\": {\"X-Key\": \"k\", \"Transfer-Encoding\": \"chunked\"},"
            + " \"https://b.example/path\": {\"X-Key\": \"k\"}, \"https://c.example\": 5}"));
    assertEquals(
        Map.of("X-Key", "k"),
        edited.forUri(URI.create("https://a.example/")),
        "an entry edited by hand is read as one set in Settings would be");
    assertEquals(3, edited.skipped(), "and what Settings would refuse is left out");
    IOException broken = assertThrows(
        IOException.class, () -> HostHeaders.read((s, k) -> Optional.of("[not an object")));
    assertTrue(broken.getMessage().contains("web_fetch.headers"), broken.getMessage());
    assertFalse(broken.getMessage().contains("not an object"), "the text is not quoted");
  }
}
