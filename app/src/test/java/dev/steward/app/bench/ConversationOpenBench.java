package dev.steward.app.bench;

import dev.steward.app.chat.ChatEntry;
import dev.steward.app.chat.ChatView;
import dev.steward.app.chat.ChatViewModel;
import dev.steward.app.chat.MessageEntry;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javafx.animation.AnimationTimer;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.stage.Stage;

/**
 * {@code ./steward bench agent} (its last rows): opening a saved conversation in the window, on a
 * headless JavaFX stage — from the switch to the second frame drawn after it (the first lays it
 * out) — for conversations of 500 and 2,000 messages against one of 30 in the same run, in
 * alternating rounds. A long conversation should open as fast as a short one.
 */
public final class ConversationOpenBench {

  private static final int WARM = 10;
  private static final int ROUNDS = 20;
  private static final String REPLY = "Here is what I found in **notes.txt**:\n\n"
      + "- the first point, with `code`\n"
      + "- a second point that runs long enough to wrap onto a second line in the window\n\n"
      + "```bash\ncurl -s https://example.org | grep tea\n```\n\n"
      + "And a closing paragraph with a [link](https://example.org).";

  private ConversationOpenBench() {}

  public static void main(String[] args) throws Exception {
    Platform.startup(() -> {});
    try {
      ChatViewModel model = new ChatViewModel(Platform::runLater);
      CountDownLatch up = new CountDownLatch(1);
      Platform.runLater(() -> {
        Stage stage = new Stage();
        stage.setScene(new Scene(new ChatView(model), 1000, 760));
        stage.show();
        up.countDown();
      });
      if (!up.await(30, TimeUnit.SECONDS)) throw new IllegalStateException("no stage");
      int[] sizes = {30, 500, 2000};
      long first = open(model, conversation(500));
      long[][] times = new long[sizes.length][ROUNDS];
      for (int r = 0; r < WARM + ROUNDS; r++) {
        for (int s = 0; s < sizes.length; s++) {
          long ns = open(model, conversation(sizes[s]));
          if (r >= WARM) times[s][r - WARM] = ns;
        }
      }
      double[] p50 = new double[sizes.length];
      for (int s = 0; s < sizes.length; s++) {
        Arrays.sort(times[s]);
        p50[s] = times[s][ROUNDS / 2] / 1e6;
      }
      List<String[]> table = new ArrayList<>();
      table.add(new String[] {
        "open a conversation of 500 messages, the first time",
        String.format("%.0f ms", first / 1e6),
        "the switch → its second frame; the JIT cold"
      });
      for (int s = 0; s < sizes.length; s++) {
        table.add(new String[] {
          "open a conversation of " + sizes[s] + " messages, p50",
          String.format("%.1f ms", p50[s]),
          s == 0
              ? "baseline: as many as are drawn at first (ChatView.PAGE = " + ChatView.PAGE + ")"
              : String.format("%.2f× the 30-message one", p50[s] / p50[0])
        });
      }
      for (String[] row : table) System.out.printf("%-62s %-44s %s%n", row[0], row[1], row[2]);
    } finally {
      Platform.exit();
    }
  }

  private static List<ChatEntry> conversation(int messages) {
    List<ChatEntry> out = new ArrayList<>(messages);
    for (int i = 0; i < messages; i++) {
      out.add(
          i % 2 == 0
              ? new MessageEntry(MessageEntry.Kind.USER, "Question " + i + " about my notes?")
              : new MessageEntry(MessageEntry.Kind.ASSISTANT, REPLY + " " + i));
    }
    return out;
  }

  /** Switches to {@code entries} and answers how long until the second frame after it. */
  private static long open(ChatViewModel model, List<ChatEntry> entries) throws Exception {
    long[] at = new long[2];
    CountDownLatch drawn = new CountDownLatch(1);
    Platform.runLater(() -> {
      at[0] = System.nanoTime();
      model.show(entries);
      new AnimationTimer() {
        private int frames;

        @Override
        public void handle(long now) {
          if (++frames < 2) return;
          at[1] = System.nanoTime();
          stop();
          drawn.countDown();
        }
      }.start();
    });
    if (!drawn.await(60, TimeUnit.SECONDS)) throw new IllegalStateException("never drawn");
    // Between rounds the stage shows nothing, as after a conversation is closed.
    CountDownLatch cleared = new CountDownLatch(1);
    Platform.runLater(() -> {
      model.show(List.of());
      cleared.countDown();
    });
    cleared.await(10, TimeUnit.SECONDS);
    Thread.sleep(50);
    return at[1] - at[0];
  }
}
