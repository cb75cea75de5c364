package dev.steward.app.bench;

import static dev.steward.app.FakeOllama.call;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.app.FakeOllama;
import dev.steward.app.FakeOllama.Reply;
import dev.steward.app.agent.Agent;
import dev.steward.app.agent.ClientServiceLink;
import dev.steward.app.agent.OllamaModelSource;
import dev.steward.app.chat.ChatEntry;
import dev.steward.app.chat.ChatViewModel;
import dev.steward.app.chat.MessageEntry;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.home.StewardPlaces;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.service.ServiceSupervisor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;
import javafx.collections.ListChangeListener;

/**
 * {@code ./steward bench agent}: the agent's own overhead per turn, with a loopback model that
 * answers at once (Ollama's API, through the production client) and the real service. Measured on
 * the window's own path — the chat view model on the JavaFX thread — from Send, and from the
 * model's first byte, to the first token in the conversation; and a tool round trip (the model's
 * call done → the next request to the model) against the same call made straight to the service
 * in the same run.
 */
public final class AgentBench {

  private static final int WARM = 150;
  private static final int ROUNDS = 150;

  private AgentBench() {}

  public static void main(String[] args) throws Exception {
    Path base = Files.createTempDirectory("steward-agent-bench-").toRealPath();
    Path user = base.resolve("user");
    Path home = base.resolve("home");
    Files.createDirectories(user.resolve("Steward"));
    Files.writeString(user.resolve("Steward/one-kb.txt"), "x".repeat(1024));
    Files.createDirectories(home.resolve("config"));
    ObjectNode policy = Json.object();
    policy.putArray("paths").addObject().put("root", "~/Steward").put("access", "read");
    Files.writeString(home.resolve("config/policy.json"), Json.pretty(policy));
    Platform.startup(() -> {});
    Path repo = Path.of("").toAbsolutePath();
    try (FakeOllama model = new FakeOllama();
        ServiceSupervisor service = new ServiceSupervisor(
            StewardPlaces.under(home, user),
            List.of(repo.resolve("steward").toString(), "service"),
            Map.of(
                "STEWARD_HOME",
                home.toString(),
                "STEWARD_NO_BUILD",
                "1",
                "JAVA_TOOL_OPTIONS",
                "-Duser.home=" + user));
        StewardClient ui = service.connect(Role.UI, "agent-bench");
        StewardClient agentClient = service.connect(Role.AGENT, "agent-bench")) {
      Agent agent = new Agent(
          new OllamaModelSource(model.url(), FakeOllama.MODEL, Duration.ofSeconds(30)),
          new ClientServiceLink(agentClient, ui),
          request -> new java.util.concurrent.CompletableFuture<>(),
          Duration.ofSeconds(60),
          10);
      agent.restore("bench", List.of());
      ChatViewModel chat = new ChatViewModel(Platform::runLater);
      Platform.runLater(() -> chat.attach(agent));

      List<Double> sendToToken = new ArrayList<>();
      List<Double> byteToToken = new ArrayList<>();
      for (int i = 0; i < WARM + ROUNDS; i++) {
        model.enqueue(Reply.text("Hello", " there."));
        long[] seen = turn(chat, "hi " + i);
        long firstByte = model.timings().get(model.timings().size() - 1)[1];
        if (i >= WARM) {
          sendToToken.add((seen[1] - seen[0]) / 1e6);
          byteToToken.add((seen[1] - firstByte) / 1e6);
        }
      }

      List<Double> roundTrip = new ArrayList<>();
      for (int i = 0; i < WARM + ROUNDS; i++) {
        model.enqueue(
            Reply.calls(call("files__read_text", "{\"path\":\"~/Steward/one-kb.txt\"}")),
            Reply.text("Read."));
        int before = model.timings().size();
        turn(chat, "read it " + i);
        List<long[]> t = model.timings();
        while (t.size() < before + 2 || t.get(before)[2] == 0) {
          Thread.onSpinWait();
          t = model.timings();
        }
        if (i >= WARM) roundTrip.add((t.get(before + 1)[0] - t.get(before)[2]) / 1e6);
      }

      List<Double> direct = new ArrayList<>();
      for (int i = 0; i < WARM + ROUNDS; i++) {
        long start = System.nanoTime();
        agentClient.execute(new Execute.Params(
            "bench-direct",
            "d-" + i,
            "files.read_text",
            Json.object().put("path", "~/Steward/one-kb.txt"),
            null,
            null));
        if (i >= WARM) direct.add((System.nanoTime() - start) / 1e6);
      }

      double tokenP50 = percentile(byteToToken, 50);
      String[][] table = {
        {
          "agent: Send → first token in the conversation (p50 / p90)",
          String.format("%.1f / %.1f ms", percentile(sendToToken, 50), percentile(sendToToken, 90)),
          "stub model answering at once"
        },
        {
          "agent: model's first byte → first token shown (p50 / p90)",
          String.format("%.1f / %.1f ms", tokenP50, percentile(byteToToken, 90)),
          "target ≤ 50 ms" + (tokenP50 <= 50 ? " (met)" : " (NOT met)")
        },
        {
          "agent: tool round trip, call done → next model request (p50)",
          String.format(
              "%.1f ms = %.2f× a direct files.read_text (%.1f ms)",
              percentile(roundTrip, 50),
              percentile(roundTrip, 50) / percentile(direct, 50),
              percentile(direct, 50)),
          "same run"
        }
      };
      for (String[] row : table) System.out.printf("%-62s %-44s %s%n", row[0], row[1], row[2]);
    } finally {
      Platform.exit();
      try (var walk = Files.walk(base)) {
        walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  /** Sends on the JavaFX thread; answers when Send was pressed and when the first token showed. */
  private static long[] turn(ChatViewModel chat, String text) throws InterruptedException {
    long[] seen = new long[2];
    CountDownLatch shown = new CountDownLatch(1);
    CountDownLatch done = new CountDownLatch(1);
    javafx.beans.value.ChangeListener<Boolean> idle = (o, was, now) -> {
      if (!now) done.countDown();
    };
    List<ListChangeListener<ChatEntry>> watching = new ArrayList<>();
    Platform.runLater(() -> {
      ListChangeListener<ChatEntry> watch = new ListChangeListener<>() {
        @Override
        public void onChanged(Change<? extends ChatEntry> c) {
          while (c.next())
            for (ChatEntry e : c.getAddedSubList())
              if (e instanceof MessageEntry m && m.kind() == MessageEntry.Kind.ASSISTANT) {
                m.textProperty().addListener((o, was, now) -> {
                  if (!now.isEmpty() && seen[1] == 0) {
                    seen[1] = System.nanoTime();
                    shown.countDown();
                  }
                });
                if (!m.text().isEmpty() && seen[1] == 0) {
                  seen[1] = System.nanoTime();
                  shown.countDown();
                }
              }
        }
      };
      watching.add(watch);
      chat.entries().addListener(watch);
      chat.busyProperty().addListener(idle);
      chat.inputProperty().set(text);
      seen[0] = System.nanoTime();
      chat.send();
    });
    if (!shown.await(30, TimeUnit.SECONDS) || !done.await(30, TimeUnit.SECONDS))
      throw new IllegalStateException("the turn did not finish: " + text);
    CountDownLatch settled = new CountDownLatch(1);
    Platform.runLater(() -> {
      watching.forEach(chat.entries()::removeListener);
      chat.busyProperty().removeListener(idle);
      settled.countDown();
    });
    settled.await();
    return seen;
  }

  private static double percentile(List<Double> values, int p) {
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
  }
}
