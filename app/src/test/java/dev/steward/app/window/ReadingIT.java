package dev.steward.app.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.app.FakeOllama;
import dev.steward.app.FakeOllama.Reply;
import dev.steward.app.chat.MessageEntry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.FormatStyle;
import java.time.temporal.ChronoUnit;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.input.Clipboard;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A reply to read and work with, in the real window: a column of reading width on a wide window,
 * a Copy button and the time under each message (kept in the history).
 */
class ReadingIT {

  private static final String REPLY = """
      ## Tea or cake

      | Item | Price |
      |------|------:|
      | Tea | 2.50 |
      | Cake | 3.10 |

      - Tea
        - green, `80 °C`
      - ~~Coffee~~

      ```bash
      curl -s https://example.org/menu | grep -i tea
      ```
      """;

  private FakeOllama ollama;
  private WindowHarness window;

  @AfterEach
  void close() throws Exception {
    if (window != null) window.close();
    if (ollama != null) ollama.close();
  }

  @Test
  void aReplyReadsInAColumnCopiesWholeAndKeepsItsTime() throws Exception {
    ollama = new FakeOllama();
    ObjectNode settings = WindowHarness.settings("http://127.0.0.1:9");
    ollama.configure(settings);
    Path base = Files.createTempDirectory("steward-reading-");
    window = WindowHarness.start(base, settings);
    WindowHarness w = window;
    Stage stage = (Stage) w.robot.listTargetWindows().get(0);
    w.robot.interact(() -> {
      // as wide as the headless screen (1280×800) allows
      stage.setX(0);
      stage.setY(0);
      stage.setWidth(1270);
      stage.setHeight(790);
    });
    w.waitFor(() -> ollama.modelName().equals(w.app.chat().modelNameProperty().get()));
    ollama.enqueue(Reply.text(REPLY.substring(0, 40), REPLY.substring(40)));
    w.type("Tea or cake?");
    w.waitFor(() -> !w.messages(MessageEntry.Kind.ASSISTANT).isEmpty()
        && w.messages(MessageEntry.Kind.ASSISTANT).get(0).text().equals(REPLY));
    w.waitForTurnEnd();
    w.robot.sleep(300); // laid out

    VBox column = w.robot.lookup(".conversation > VBox").queryAs(VBox.class);
    Bounds inWindow = column.localToScene(column.getLayoutBounds());
    assertTrue(column.getWidth() <= 861, "a reading column: " + column.getWidth());
    assertTrue(inWindow.getMinX() > 150, "in the middle of the window: " + inWindow);
    assertTrue(w.robot.lookup(".md-table").tryQuery().isPresent(), "the table is a table");
    assertTrue(w.robot.lookup(".md-code-block").tryQuery().isPresent());
    w.screenshot("chat-reading");

    MessageEntry reply = w.messages(MessageEntry.Kind.ASSISTANT).get(0);
    Node replyRow = w.robot.lookup(".message-assistant").query().getParent().getParent();
    Label time = w.robot.from(replyRow).lookup(".message-time").queryAs(Label.class);
    assertEquals(
        DateTimeFormatter.ofLocalizedTime(FormatStyle.SHORT)
            .format(reply.at().atZone(ZoneId.systemDefault())),
        time.getText());
    Button copy = w.robot.from(replyRow).lookup(".message-copy").queryButton();
    w.robot.interact(() -> Clipboard.getSystemClipboard().clear());
    w.robot.interact(copy::fire);
    String[] copied = new String[1];
    w.robot.interact(() -> copied[0] = Clipboard.getSystemClipboard().getString());
    assertEquals(REPLY, copied[0], "the message as written, Markdown and all");

    Instant written = reply.at();
    Instant asked = w.messages(MessageEntry.Kind.USER).get(0).at();
    w.quit();
    window = WindowHarness.start(base, settings);
    WindowHarness again = window;
    again.waitFor(() -> again.messages(MessageEntry.Kind.ASSISTANT).size() == 1);
    assertEquals(
        written.truncatedTo(ChronoUnit.MILLIS),
        again.messages(MessageEntry.Kind.ASSISTANT).get(0).at().truncatedTo(ChronoUnit.MILLIS),
        "the time is the reply's, not the restart's");
    assertEquals(
        asked.truncatedTo(ChronoUnit.MILLIS),
        again.messages(MessageEntry.Kind.USER).get(0).at().truncatedTo(ChronoUnit.MILLIS));
  }
}
