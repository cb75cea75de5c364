package dev.steward.service.tools.browser;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SelfNavigationTest {

  private static final Map<String, String> HTML =
      Map.of("content-type", "text/html; charset=utf-8");

  /** With the body's length declared, as the judgement asks. */
  private static boolean possible(Map<String, String> headers, String body) {
    return possible(headers, body.getBytes(StandardCharsets.UTF_8));
  }

  private static boolean possible(Map<String, String> headers, byte[] body) {
    Map<String, String> declared = new java.util.HashMap<>(headers);
    declared.putIfAbsent("content-length", String.valueOf(body.length));
    return SelfNavigation.possible(declared, () -> body);
  }

  @Test
  void a_plain_page_cannot_navigate_itself() {
    assertFalse(possible(
        HTML,
        "<!doctype html><html><title>Notes</title><body><h1>Notes</h1><p>One, two.</p>"
            + "<a href='/next'>next</a><img src='a.png' alt='on the left'></body></html>"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "<script>location.href='/x'</script>",
        "<SCRIPT src=/a.js></SCRIPT>",
        "<svg><script>top.location='/x'</script></svg>",
        "<body onload=\"location='/x'\">",
        "<img src=x onerror=location='/x'>",
        "<img src=\"x\"onerror=\"location='/x'\">",
        "<img/ONERROR = location='/x' src=x>",
        "<img src='x'\tonerror\f=location='/x'>",
        "<iFrAmE src=/x>",
        "<svg><animate onbegin=location='/x'></svg>",
        "<meta http-equiv=refresh content='0;url=/x'>",
        "<META HTTP-EQUIV=\"Refresh\" content=\"0;url=/x\">",
        "<iframe srcdoc=\"&lt;script&gt;top.location='/x'&lt;/script&gt;\"></iframe>",
        "<frameset><frame src=/x></frameset>",
        "<fencedframe src=/x></fencedframe>",
        "<object data=/x></object>",
        "<embed src=/x>",
        "<template shadowrootmode=closed><script>location='/x'</script></template>",
        "<portal src=/x></portal>"
      })
  void a_page_with_a_way_to_navigate_itself_may(String html) {
    assertTrue(possible(HTML, "<!doctype html><body>text" + html + "</body>"), html);
  }

  @Test
  void a_refresh_header_may_navigate() {
    assertTrue(
        possible(Map.of("content-type", "text/html", "refresh", "0;url=/x"), "<body>plain</body>"));
  }

  @Test
  void a_page_with_its_charset_declared_is_judged() {
    assertFalse(possible(Map.of("content-type", "text/html;charset=windows-1252"), "<p>plain</p>"));
    assertFalse(possible(Map.of("content-type", "TEXT/HTML"), "<p>plain</p>"));
  }

  @Test
  void what_is_not_plainly_html_is_not_judged() {
    assertTrue(possible(Map.of("content-type", "application/xhtml+xml"), "<p>plain</p>"));
    assertTrue(possible(Map.of(), "<p>plain</p>"));
    assertTrue(
        possible(Map.of("content-type", "text/html, application/xhtml+xml"), "<p>plain</p>"),
        "a list of types may be read as its last");
  }

  @Test
  void an_encoding_that_hides_letters_is_not_judged() {
    assertTrue(possible(HTML, "<p>plain</p>".getBytes(StandardCharsets.UTF_16LE)), "UTF-16");
    // ISO-2022-JP: ESC ( B, the mode already in force, reads as nothing: the browser sees <script>.
    assertTrue(
        possible(
            Map.of("content-type", "text/html; charset=iso-2022-jp"),
            "<scr\u001b(Bipt>location='/x'</script>".getBytes(StandardCharsets.ISO_8859_1)),
        "ISO-2022-JP");
  }

  @Test
  void a_body_of_undeclared_size_compressed_or_too_big_is_not_read() {
    java.util.function.Supplier<byte[]> unread = () -> {
      throw new AssertionError("read");
    };
    assertTrue(SelfNavigation.possible(Map.of("content-type", "text/html"), unread), "chunked");
    assertTrue(SelfNavigation.possible(
        Map.of("content-type", "text/html", "content-length", "lots"), unread));
    assertTrue(SelfNavigation.possible(
        Map.of("content-type", "text/html", "content-length", String.valueOf(1 << 20)), unread));
    assertTrue(SelfNavigation.possible(
        Map.of("content-type", "text/html", "content-length", "20", "content-encoding", "br"),
        unread));
    assertTrue(SelfNavigation.possible(
        Map.of("content-type", "text/html", "content-length", "20", "refresh", "0;url=/x"),
        unread));
    assertTrue(possible(
        Map.of("content-type", "text/html", "content-length", "100"),
        "<p>" + "plain ".repeat(SelfNavigation.MAX_BODY_BYTES / 6 + 1)));
  }

  /** Inputs that would make a backtracking search take minutes on the browser's one thread. */
  @ParameterizedTest
  @ValueSource(strings = {"on", " on", "<a", "<", " "})
  void the_search_is_linear_in_the_body(String unit) {
    String body = unit.repeat((SelfNavigation.MAX_BODY_BYTES - 16) / unit.length());
    org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
        java.time.Duration.ofSeconds(2), () -> possible(HTML, body));
  }

  @Test
  void the_body_is_not_read_when_the_headers_answer() {
    assertTrue(SelfNavigation.possible(Map.of("content-type", "image/png"), () -> {
      throw new AssertionError("read");
    }));
  }
}
