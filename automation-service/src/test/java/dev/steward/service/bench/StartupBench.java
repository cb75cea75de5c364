package dev.steward.service.bench;

import dev.steward.service.ServiceProcess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Issue 7's start-up figures, measured on the packaged app image (installer/target/image) from
 * process start: until the service answers on its port, until the window is shown (the app logs
 * that moment), each with and without the class-data-sharing archives; and the resident memory of
 * both when idle. Runs under xvfb-run (./steward bench).
 */
final class StartupBench {

  private static final int RUNS = 5;

  private StartupBench() {}

  static void run(List<String[]> table, Path tmp) throws Exception {
    Path image = ServiceProcess.repo().resolve("installer/target/image/steward");
    if (!Files.isExecutable(image.resolve("bin/steward-service"))) {
      throw new IllegalStateException(
          "no app image at " + image + ": ./steward bench builds it with the installer module");
    }
    Process dump = new ProcessBuilder(image.resolve("lib/cds-dump.sh").toString())
        .inheritIO()
        .start();
    if (!dump.waitFor(180, TimeUnit.SECONDS) || dump.exitValue() != 0)
      throw new IllegalStateException("cds-dump.sh failed");
    Path home = tmp.resolve("startup-home");
    // A first start creates the secrets and the log; the figures are for later starts.
    serviceReady(image, home, "");
    // On a bundled JDK 25 the service starts from its ahead-of-time cache (ADR 29), else from CDS.
    boolean aot = Files.exists(image.resolve("lib/app/steward-service.aot"));
    long[] withCds = new long[RUNS];
    long[] without = new long[RUNS];
    for (int i = 0; i < RUNS; i++) {
      withCds[i] = serviceReady(image, home, "");
      without[i] = serviceReady(image, home, aot ? "-XX:AOTMode=off" : "-Xshare:off");
    }
    table.add(new String[] {
      "service ready from process start, p50",
      median(withCds) + " ms with " + (aot ? "the AOT cache" : "CDS") + " / " + median(without)
          + " ms without",
      "target ≤ 500 ms"
    });

    if (System.getenv("DISPLAY") == null) {
      table.add(new String[] {
        "window shown from process start",
        "not run",
        "needs a display (./steward bench uses xvfb-run)"
      });
      return;
    }
    Process service = startService(image, home, "");
    try {
      waitForService(home, service);
      long[] windowCds = new long[RUNS];
      long[] windowPlain = new long[RUNS];
      long appRss = 0;
      for (int i = 0; i < RUNS; i++) {
        windowCds[i] = windowShown(image, home, "", i == RUNS - 1);
        windowPlain[i] = windowShown(image, home, "-Xshare:off", false);
      }
      appRss = lastAppRssKb;
      table.add(new String[] {
        "window shown from process start, p50",
        median(windowCds) + " ms with CDS / " + median(windowPlain) + " ms without",
        "target ≤ 1,500 ms (aim 1,000)"
      });
      Thread.sleep(3000);
      table.add(new String[] {
        "idle RSS: window / service",
        appRss / 1024 + " MB / " + rssKb(service.pid()) / 1024 + " MB",
        "targets ≤ 300 MB / ≤ 150 MB"
      });
    } finally {
      service.destroy();
      service.waitFor(10, TimeUnit.SECONDS);
    }
  }

  private static long lastAppRssKb;

  private static Process startService(Path image, Path home, String javaOptions)
      throws IOException {
    Files.deleteIfExists(home.resolve("run/service.json"));
    ProcessBuilder pb = new ProcessBuilder(image.resolve("bin/steward-service").toString())
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD);
    pb.environment().put("STEWARD_HOME", home.toString());
    if (!javaOptions.isEmpty()) pb.environment().put("JAVA_TOOL_OPTIONS", javaOptions);
    return pb.start();
  }

  /** Milliseconds from starting the process until its port accepts a connection. */
  private static long serviceReady(Path image, Path home, String javaOptions) throws Exception {
    long t0 = System.nanoTime();
    Process p = startService(image, home, javaOptions);
    try {
      waitForService(home, p);
      return (System.nanoTime() - t0) / 1_000_000;
    } finally {
      p.destroy();
      p.waitFor(10, TimeUnit.SECONDS);
    }
  }

  private static void waitForService(Path home, Process p) throws Exception {
    Path info = home.resolve("run/service.json");
    for (int i = 0; i < 3000; i++) {
      if (Files.exists(info)) {
        String text = Files.readString(info);
        int at = text.indexOf("\"port\":");
        if (at >= 0) {
          int port =
              Integer.parseInt(text.substring(at + 7, text.indexOf(',', at)).trim());
          try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return;
          } catch (IOException e) {
            // not yet
          }
        }
      }
      if (!p.isAlive()) throw new IllegalStateException("the service exited with " + p.exitValue());
      Thread.sleep(2);
    }
    throw new IllegalStateException("the service did not start");
  }

  /** Milliseconds from starting the window's process until it logs that the window is shown. */
  private static long windowShown(Path image, Path home, String javaOptions, boolean measureRss)
      throws Exception {
    ProcessBuilder pb =
        new ProcessBuilder(image.resolve("bin/steward").toString()).redirectErrorStream(true);
    pb.environment().put("STEWARD_HOME", home.toString());
    pb.environment().put("STEWARD_OLLAMA_URL", "http://127.0.0.1:9");
    pb.environment()
        .put(
            "JAVA_TOOL_OPTIONS",
            (javaOptions + " -Dsteward.exit-after-start-ms=" + (measureRss ? 4000 : 300)).trim());
    long t0 = System.nanoTime();
    Process p = pb.start();
    long shown = -1;
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null) {
        if (shown < 0 && line.startsWith("steward: window shown")) {
          shown = (System.nanoTime() - t0) / 1_000_000;
          if (measureRss) {
            Thread.sleep(3000);
            lastAppRssKb = rssKb(p.pid());
          }
        }
      }
    }
    p.waitFor(20, TimeUnit.SECONDS);
    if (shown < 0) throw new IllegalStateException("the window never said it was shown");
    return shown;
  }

  private static long median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  private static long rssKb(long pid) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
      if (line.startsWith("VmRSS:")) return Long.parseLong(line.replaceAll("\\D", ""));
    }
    return -1;
  }
}
