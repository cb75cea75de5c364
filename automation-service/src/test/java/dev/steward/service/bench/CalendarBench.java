package dev.steward.service.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.service.ServiceProcess;
import dev.steward.service.tools.calendar.ThrowawayRadicale;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * {@code ./steward bench calendar}: {@code calendar.availability} for a month holding 500 events
 * (some weekly) on a real Radicale, warm, through the service (agent → gate → REPORT → parse →
 * expand), against {@code curl} sending the same REPORT (its own transfer time, without its
 * process start), interleaved call by call.
 */
final class CalendarBench {

  private static final int WARM = 20;
  private static final int RUNS = 60;
  private static final String USER = "bench";
  private static final String PASSWORD = "bench-password";

  private CalendarBench() {}

  static void run(List<String[]> table, Path tmp) throws Exception {
    try (ThrowawayRadicale radicale = ThrowawayRadicale.start(USER, PASSWORD)) {
      radicale.mkcalendar(USER, PASSWORD, "assistant");
      Random random = new Random(7);
      for (int i = 0; i < 500; i++) {
        int day = 1 + random.nextInt(31);
        int hour = 7 + random.nextInt(11);
        String start =
            String.format(Locale.ROOT, "202603%02dT%02d%02d00", day, hour, 15 * random.nextInt(4));
        String end = String.format(Locale.ROOT, "202603%02dT%02d%02d00", day, hour + 1, 0);
        String rule = i % 20 == 0 ? "RRULE:FREQ=WEEKLY;COUNT=10\r\n" : "";
        radicale.put(
            USER,
            PASSWORD,
            "assistant",
            "e" + i + ".ics",
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"
                + "PRODID:-//Bench//EN\r\nBEGIN:VEVENT\r\nUID:e" + i
                + "\r\nDTSTAMP:20260101T000000Z\r\n"
                + "DTSTART;TZID=Europe/Berlin:" + start + "\r\nDTEND;TZID=Europe/Berlin:" + end
                + "\r\n"
                + rule + "SUMMARY:Event " + i + "\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n");
      }
      String url = radicale.calendar(USER, "assistant");
      Path home = tmp.resolve("calendar-home");
      Files.createDirectories(home.resolve("config"));
      PolicyDocument doc = PolicyDocument.defaults()
          .withPaths(List.of(new PolicyDocument.PathRoot(tmp.toString(), "read_write")))
          .withCalendar(new PolicyDocument.Calendar(url));
      Files.writeString(home.resolve("config/policy.json"), Json.write(doc));
      Path secrets = home.resolve("config/secrets.json");
      Files.writeString(
          secrets,
          "{\"calendar\": {\"username\": \"" + USER + "\", \"password\": \"" + PASSWORD + "\"}}");
      Files.setPosixFilePermissions(secrets, PosixFilePermissions.fromString("rw-------"));
      Path body = tmp.resolve("report.xml");
      Files.writeString(
          body,
          "<?xml version=\"1.0\" encoding=\"utf-8\"?><C:calendar-query xmlns:D=\"DAV:\""
              + " xmlns:C=\"urn:ietf:params:xml:ns:caldav\"><D:prop><D:getetag/><C:calendar-data/>"
              + "</D:prop><C:filter><C:comp-filter name=\"VCALENDAR\"><C:comp-filter name=\"VEVENT\">"
              + "<C:time-range start=\"20260301T000000Z\" end=\"20260401T000000Z\"/></C:comp-filter>"
              + "</C:comp-filter></C:filter></C:calendar-query>",
          StandardCharsets.UTF_8);
      // What the service asks once it has read the objects: the same query, versions only.
      Path versions = tmp.resolve("versions.xml");
      Files.writeString(
          versions,
          Files.readString(body).replace("<C:calendar-data/>", ""),
          StandardCharsets.UTF_8);
      try (ServiceProcess service = ServiceProcess.start(home, tmp);
          StewardClient agent = service.client(Role.AGENT)) {
        long[] ours = new long[RUNS];
        long[] curl = new long[RUNS];
        long[] curlVersions = new long[RUNS];
        int slots = 0;
        for (int i = -WARM; i < RUNS; i++) {
          long t0 = System.nanoTime();
          JsonNode r = agent.call(
              Methods.TOOL_EXECUTE,
              new Execute.Params(
                  "c",
                  "c" + i,
                  "calendar.availability",
                  Json.object().put("from", "2026-03-01T00:00Z").put("to", "2026-04-01T00:00Z"),
                  null,
                  null),
              JsonNode.class);
          long t1 = System.nanoTime();
          if (!r.path("ok").asBoolean())
            throw new IllegalStateException("availability failed: " + r);
          long full = curl(url, body);
          long onlyVersions = curl(url, versions);
          if (i >= 0) {
            ours[i] = t1 - t0;
            curl[i] = full;
            curlVersions[i] = onlyVersions;
            slots = r.path("value").path("slots").size();
          }
        }
        Arrays.sort(ours);
        Arrays.sort(curl);
        Arrays.sort(curlVersions);
        double o = ours[RUNS / 2] / 1e6;
        double c = curl[RUNS / 2] / 1e6;
        double v = curlVersions[RUNS / 2] / 1e6;
        table.add(new String[] {
          "calendar.availability, a month of 500 events on Radicale, p50 (through the service)",
          String.format(Locale.ROOT, "%.1f ms vs %.1f ms curl REPORT = %.2f×", o, c, o / c),
          "target ≤ 1.3× (" + slots + " busy slots)"
        });
        table.add(new String[] {
          "  the same against curl asking for versions only (what the service asks once warm)",
          String.format(Locale.ROOT, "%.1f ms vs %.1f ms = %.2f×", o, v, o / v),
          "the service's own cost over the server's"
        });
      }
    }
  }

  /** One REPORT by curl with this body: its own total time, without its process start. */
  private static long curl(String url, Path body) throws Exception {
    Process p = new ProcessBuilder(
            "curl",
            "-s",
            "-o",
            "/dev/null",
            "-w",
            "%{time_total}",
            "-u",
            USER + ":" + PASSWORD,
            "-X",
            "REPORT",
            "-H",
            "Depth: 1",
            "-H",
            "Content-Type: application/xml",
            "--data-binary",
            "@" + body,
            url)
        .redirectErrorStream(true)
        .start();
    String seconds = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor();
    return (long) (Double.parseDouble(seconds.strip()) * 1e9);
  }
}
