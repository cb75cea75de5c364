package dev.steward.service.tools.calendar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.tools.ToolFailure;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a calendar server answers is not trusted: an object named outside the one calendar is never
 * read or written, and its XML cannot reach files or other hosts through entities.
 */
class CalDavTest {

  final CalDav dav = new CalDav(
      HttpClient.newHttpClient(),
      URI.create("https://dav.example.org/alice/assistant/"),
      "alice",
      "pw");

  @Test
  void only_objects_inside_the_calendar_are_its_own() {
    assertTrue(dav.holds(URI.create("https://dav.example.org/alice/assistant/a.ics")));
    assertTrue(dav.holds(URI.create("https://DAV.example.org:443/alice/assistant/a.ics")));
    for (String outside : List.of(
        "https://dav.example.org/alice/assistant/",
        "https://dav.example.org/alice/assistant-private/a.ics",
        "https://dav.example.org/alice/assistant/../private/a.ics",
        "https://dav.example.org/alice/private/a.ics",
        "http://dav.example.org/alice/assistant/a.ics",
        "https://dav.example.org:8443/alice/assistant/a.ics",
        "https://evil.example.org/alice/assistant/a.ics")) {
      assertFalse(dav.holds(URI.create(outside)), outside);
    }
    assertThrows(
        IllegalArgumentException.class,
        () -> dav.get(URI.create("https://dav.example.org/alice/private/a.ics")));
  }

  @Test
  void a_multiget_keeps_only_the_objects_it_asked_for_however_the_server_spells_them()
      throws Exception {
    com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
        new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
    java.util.List<String> bodies = new java.util.concurrent.CopyOnWriteArrayList<>();
    java.util.List<String> depths = new java.util.concurrent.CopyOnWriteArrayList<>();
    server.createContext("/alice/assistant/", x -> {
      String asked = new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      bodies.add(asked);
      depths.add(String.valueOf(x.getRequestHeaders().getFirst("Depth")));
      String item =
          "<D:response><D:href>%s</D:href><D:propstat><D:prop><D:getetag>\"1\"</D:getetag>"
              + "<C:calendar-data>BEGIN:VCALENDAR%nEND:VCALENDAR</C:calendar-data></D:prop>"
              + "<D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>";
      // The server spells x@y.ics its own way, and answers for gone.ics only if asked twice.
      StringBuilder answer = new StringBuilder(
          "<D:multistatus xmlns:D=\"DAV:\" xmlns:C=\"urn:ietf:params:xml:ns:caldav\">");
      answer.append(String.format(item, "/alice/assistant/a.ics"));
      answer.append(String.format(item, "/alice/assistant/x%40y.ics"));
      answer.append(String.format(item, "/alice/assistant/slipped-in.ics"));
      answer.append("</D:multistatus>");
      byte[] b = answer.toString().getBytes(StandardCharsets.UTF_8);
      x.sendResponseHeaders(207, b.length);
      x.getResponseBody().write(b);
      x.close();
    });
    server.start();
    try {
      String base = "http://127.0.0.1:" + server.getAddress().getPort() + "/alice/assistant/";
      CalDav local = new CalDav(HttpClient.newHttpClient(), URI.create(base), "alice", "pw");
      List<CalDav.Resource> got = local
          .multiget(List.of(URI.create(base + "a.ics"), URI.create(base + "x@y.ics")))
          .orElseThrow();
      assertEquals(
          List.of("a.ics", "x%40y.ics"),
          got.stream().map(r -> r.href().getRawPath().substring(17)).toList(),
          "the same object in another spelling counts; one not asked for never does");
      assertTrue(bodies.get(0).contains("<D:href>/alice/assistant/a.ics</D:href>"), bodies.get(0));
      assertEquals("null", depths.get(0), "a multiget names its objects: no Depth");
      assertTrue(
          local
              .multiget(List.of(URI.create(base + "a.ics"), URI.create(base + "gone.ics")))
              .isEmpty(),
          "an object left unanswered makes the caller ask for the whole range");
      assertThrows(
          IllegalArgumentException.class,
          () -> local.multiget(List.of(URI.create(base.replace("assistant", "private") + "b.ics"))),
          "nothing outside the calendar is asked for");
    } finally {
      server.stop(0);
    }
  }

  @Test
  void an_escaped_step_out_of_the_calendar_is_not_inside_it() {
    for (String outside : List.of(
        "https://dav.example.org/alice/assistant/%2e%2e/private/a.ics",
        "https://dav.example.org/alice/assistant/%2E%2E/private/a.ics",
        "https://dav.example.org/alice/assistant/.%2e/private/a.ics",
        "https://dav.example.org/alice/assistant/..%2Fprivate%2Fa.ics",
        "https://dav.example.org/alice/assistant/x%2fy.ics")) {
      assertFalse(dav.holds(URI.create(outside)), outside);
    }
    assertEquals(
        CalDav.canonical(URI.create("https://dav.example.org/alice/assistant/x@y%20z.ics")),
        CalDav.canonical(URI.create("https://DAV.example.org/alice/assistant/x%40y%20z.ics")));
  }

  @Test
  void a_multistatus_is_read_and_an_entity_is_refused() throws Exception {
    String ok =
        "<?xml version=\"1.0\"?><d:multistatus xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\">"
            + "<d:response><d:href>/alice/assistant/a.ics</d:href><d:propstat><d:prop>"
            + "<d:getetag>\"1\"</d:getetag><c:calendar-data>BEGIN:VCALENDAR</c:calendar-data>"
            + "</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>"
            + "<d:propstat><d:prop><x:other xmlns:x=\"urn:x\"/></d:prop><d:status>HTTP/1.1 404 Not Found</d:status></d:propstat>"
            + "</d:response></d:multistatus>";
    List<DavXml.Item> items = DavXml.items(ok.getBytes(StandardCharsets.UTF_8));
    assertEquals(
        List.of(new DavXml.Item("/alice/assistant/a.ics", "\"1\"", "BEGIN:VCALENDAR")), items);

    String evil = "<?xml version=\"1.0\"?><!DOCTYPE m [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
        + "<d:multistatus xmlns:d=\"DAV:\"><d:response><d:href>&x;</d:href></d:response></d:multistatus>";
    ToolFailure f =
        assertThrows(ToolFailure.class, () -> DavXml.items(evil.getBytes(StandardCharsets.UTF_8)));
    assertEquals(ToolErrorCodes.EXECUTION_ERROR, f.error().code());
    assertFalse(f.getMessage().contains("root:"), f.getMessage());
  }
}
