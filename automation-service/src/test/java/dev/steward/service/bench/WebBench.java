package dev.steward.service.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.service.ServiceProcess;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.jsoup.Jsoup;

/**
 * {@code ./steward bench web}: {@code web.fetch} of a 100 KB HTML page on loopback to text,
 * through the service (agent → gate → fetch → text), against {@code curl} fetching the same page
 * plus a bare jsoup call turning it into text, interleaved call by call.
 */
final class WebBench {

  private static final int WARM = 40;
  private static final int RUNS = 120;

  private WebBench() {}

  static void run(List<String[]> table, Path tmp) throws Exception {
    StringBuilder html =
        new StringBuilder("<html><head><title>Bench</title><script>x()</script></head><body>");
    for (int i = 0; html.length() < 100_000; i++) {
      html.append("<h2>Section ")
          .append(i)
          .append("</h2><p>Some <b>text</b> in paragraph ")
          .append(i)
          .append(", with a <a href=\"/x")
          .append(i)
          .append("\">link</a>.</p>");
    }
    byte[] page = html.append("</body></html>").toString().getBytes(StandardCharsets.UTF_8);
    HttpServer pages =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    var serving = java.util.concurrent.Executors.newFixedThreadPool(4);
    pages.setExecutor(serving);
    pages.createContext("/", ex -> {
      ex.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
      ex.sendResponseHeaders(200, page.length);
      try (var out = ex.getResponseBody()) {
        out.write(page);
      }
    });
    pages.start();
    Path home = tmp.resolve("web-home");
    Files.createDirectories(home.resolve("config"));
    PolicyDocument doc = PolicyDocument.defaults()
        .withPaths(List.of(new PolicyDocument.PathRoot(tmp.toString(), "read_write")))
        .withHosts(new PolicyDocument.Hosts(List.of("127.0.0.1"), true));
    Files.writeString(home.resolve("config/policy.json"), Json.write(doc));
    String url = "http://127.0.0.1:" + pages.getAddress().getPort() + "/page";
    try (ServiceProcess service = ServiceProcess.start(home, tmp);
        StewardClient agent = service.client(Role.AGENT)) {
      long[] fetch = new long[RUNS];
      long[] bare = new long[RUNS];
      int chars = 0;
      for (int i = -WARM; i < RUNS; i++) {
        long t0 = System.nanoTime();
        JsonNode r = agent.call(
            Methods.TOOL_EXECUTE,
            new Execute.Params(
                "w",
                "w" + i,
                "web.fetch",
                Json.object().put("url", url).put("max_chars", 200_000),
                null,
                null),
            JsonNode.class);
        long t1 = System.nanoTime();
        if (!r.path("ok").asBoolean()) throw new IllegalStateException("web.fetch failed: " + r);
        Process curl =
            new ProcessBuilder("curl", "-s", url).redirectErrorStream(true).start();
        byte[] body = curl.getInputStream().readAllBytes();
        curl.waitFor();
        String text =
            Jsoup.parse(new String(body, StandardCharsets.UTF_8), url).body().text();
        long t2 = System.nanoTime();
        if (i >= 0) {
          fetch[i] = t1 - t0;
          bare[i] = t2 - t1;
          chars = text.length();
        }
      }
      Arrays.sort(fetch);
      Arrays.sort(bare);
      double f = fetch[RUNS / 2] / 1e6;
      double b = bare[RUNS / 2] / 1e6;
      table.add(new String[] {
        "web.fetch 100 KB page → text, p50 (through the service)",
        String.format(Locale.ROOT, "%.2f ms vs %.2f ms curl + jsoup = %.2f×", f, b, f / b),
        "target ≤ 1.5× (" + chars + " chars of text)"
      });
    } finally {
      pages.stop(0);
      serving.shutdownNow();
    }
  }
}
