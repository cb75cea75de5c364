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

  private static boolean possible(Map<String, String> headers, String body) {
    return SelfNavigation.possible(headers, () -> body.getBytes(StandardCharsets.UTF_8));
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
        "< script>",
        "<svg><script>top.location='/x'</script></svg>",
        "<body onload=\"location='/x'\">",
        "<img src=x onerror=location='/x'>",
        "<img src=\"x\"onerror=\"location='/x'\">",
        "<img/ONERROR = location='/x' src=x>",
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
  void what_is_not_html_or_not_read_as_ascii_is_not_judged() {
    assertTrue(possible(Map.of("content-type", "application/xhtml+xml"), "<p>plain</p>"));
    assertTrue(possible(Map.of(), "<p>plain</p>"));
    assertTrue(
        SelfNavigation.possible(HTML, () -> "<p>plain</p>".getBytes(StandardCharsets.UTF_16LE)),
        "UTF-16");
    assertTrue(possible(
        Map.of("content-type", "text/html", "content-length", String.valueOf(1 << 20)), "<p/>"));
    assertTrue(possible(Map.of("content-type", "text/html", "content-length", "lots"), "<p/>"));
    assertTrue(possible(HTML, "<p>" + "plain ".repeat(SelfNavigation.MAX_BODY_BYTES / 6 + 1)));
  }

  @Test
  void the_body_is_not_read_when_the_headers_answer() {
    assertTrue(SelfNavigation.possible(Map.of("content-type", "image/png"), () -> {
      throw new AssertionError("read");
    }));
  }
}
