package dev.steward.app.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.ScrollPane;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * A long conversation on a real (headless) stage: opened with its newest entries drawn, earlier
 * ones drawn on asking with the view kept in place, and found ones drawn when the find bar points
 * at them.
 */
class ChatViewPagingIT {

  private static Stage stage;

  @BeforeAll
  static void stage() throws Exception {
    stage = FxToolkit.registerPrimaryStage();
  }

  @AfterAll
  static void cleanUp() throws Exception {
    FxToolkit.cleanupStages();
  }

  private static <T> T fx(Callable<T> work) throws Exception {
    T out = WaitForAsyncUtils.asyncFx(work).get(10, TimeUnit.SECONDS);
    WaitForAsyncUtils.waitForFxEvents();
    return out;
  }

  private static List<ChatEntry> conversation(int n, int needleAt) {
    List<ChatEntry> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      MessageEntry.Kind kind = i % 2 == 0 ? MessageEntry.Kind.USER : MessageEntry.Kind.ASSISTANT;
      out.add(new MessageEntry(
          kind, (i == needleAt ? "the needle, " : "") + "message " + i + " with **some** text"));
    }
    return out;
  }

  private static ChatView shown(ChatViewModel model) throws Exception {
    return fx(() -> {
      ChatView view = new ChatView(model);
      stage.setScene(new Scene(view, 900, 640));
      stage.show();
      return view;
    });
  }

  private static VBox entries(ChatView view) {
    return (VBox) view.lookup("#entries");
  }

  private static Button earlier(ChatView view) {
    return (Button) view.lookup("#show-earlier");
  }

  @Test
  void aLongConversationOpensWithItsNewestAndShowsTheRestOnAsking() throws Exception {
    ChatViewModel model = new ChatViewModel(Platform::runLater);
    ChatView view = shown(model);
    fx(() -> {
      model.show(conversation(100, -1));
      return null;
    });
    assertEquals(ChatView.PAGE, fx(() -> entries(view).getChildren().size()));
    assertTrue(fx(() -> earlier(view).isVisible()));
    assertEquals("Show earlier messages (70 more)", fx(() -> earlier(view).getText()));
    assertTrue(fx(() -> text(entries(view).getChildren().get(0)).contains("message 70 ")));

    // From the top, where the button is: the entry that was first stays where it was on screen.
    ScrollPane scroll = (ScrollPane) view.lookup("#conversation");
    Node wasFirst = fx(() -> entries(view).getChildren().get(0));
    double before = fx(() -> {
      scroll.setVvalue(0);
      scroll.layout();
      return wasFirst.localToScene(0, 0).getY();
    });
    fx(() -> {
      earlier(view).fire();
      return null;
    });
    assertEquals(2 * ChatView.PAGE, fx(() -> entries(view).getChildren().size()));
    double after = fx(() -> wasFirst.localToScene(0, 0).getY());
    assertEquals(before, after, 2.0, "the view kept its place");

    fx(() -> {
      earlier(view).fire();
      return null;
    });
    // The last page, clicked as a user does: the button has the focus as it goes away.
    Node thirdFirst = fx(() -> entries(view).getChildren().get(0));
    double beforeLast = fx(() -> {
      scroll.setVvalue(0);
      scroll.layout();
      return thirdFirst.localToScene(0, 0).getY();
    });
    fx(() -> {
      earlier(view).requestFocus();
      earlier(view).fire();
      return null;
    });
    Thread.sleep(200);
    WaitForAsyncUtils.waitForFxEvents();
    assertEquals(
        beforeLast,
        fx(() -> thirdFirst.localToScene(0, 0).getY()),
        2.0,
        "the view kept its place as the button went away");
    assertEquals(100, fx(() -> entries(view).getChildren().size()));
    assertFalse(fx(() -> earlier(view).isVisible()));
    assertTrue(fx(() -> text(entries(view).getChildren().get(0)).contains("message 0 ")));

    // Another conversation, short: drawn whole, no button.
    fx(() -> {
      model.show(conversation(5, -1));
      return null;
    });
    assertEquals(5, fx(() -> entries(view).getChildren().size()));
    assertFalse(fx(() -> earlier(view).isVisible()));
  }

  @Test
  void anEntryTheFindBarPointsAtIsDrawnFirst() throws Exception {
    ChatViewModel model = new ChatViewModel(Platform::runLater);
    ChatView view = shown(model);
    fx(() -> {
      model.show(conversation(120, 7));
      return null;
    });
    assertEquals(ChatView.PAGE, fx(() -> entries(view).getChildren().size()));
    fx(() -> {
      model.openFind();
      model.findTextProperty().set("needle");
      return null;
    });
    assertEquals(7, model.foundProperty().get());
    List<String> found = fx(() -> entries(view).getChildren().stream()
        .filter(n -> n.getStyleClass().contains("found"))
        .map(ChatViewPagingIT::text)
        .toList());
    assertEquals(1, found.size(), found.toString());
    assertTrue(found.get(0).contains("the needle, message 7 "), found.toString());
    // Drawn down to it, no further: what lies before it waits for the button still.
    assertEquals(120 - 7, fx(() -> entries(view).getChildren().size()));
    assertEquals("Show earlier messages (7 more)", fx(() -> earlier(view).getText()));
  }

  @Test
  void aConversationOpenedWithTheFindBarOpenShowsItsMatch() throws Exception {
    ChatViewModel model = new ChatViewModel(Platform::runLater);
    ChatView view = shown(model);
    fx(() -> {
      model.openFind();
      model.findTextProperty().set("needle");
      model.show(conversation(40, 15));
      return null;
    });
    Thread.sleep(200);
    WaitForAsyncUtils.waitForFxEvents();
    assertEquals(15, model.foundProperty().get());
    ScrollPane scroll = (ScrollPane) view.lookup("#conversation");
    double[] at = fx(() -> {
      Node found = entries(view).getChildren().stream()
          .filter(n -> n.getStyleClass().contains("found"))
          .findFirst()
          .orElseThrow();
      javafx.geometry.Bounds port = scroll.localToScene(scroll.getLayoutBounds());
      return new double[] {found.localToScene(0, 0).getY(), port.getMinY(), port.getMaxY()};
    });
    assertTrue(at[0] >= at[1] - 1 && at[0] < at[2], "the match is in view: " + Arrays.toString(at));
  }

  /** The text a drawn entry shows, its Markdown's words joined. */
  private static String text(Node node) {
    StringBuilder out = new StringBuilder();
    collect(node, out);
    return out.toString();
  }

  private static void collect(Node node, StringBuilder out) {
    if (node instanceof javafx.scene.text.Text t) out.append(t.getText());
    if (node instanceof javafx.scene.control.Labeled l) out.append(l.getText());
    if (node instanceof javafx.scene.Parent p)
      for (Node child : p.getChildrenUnmodifiable()) collect(child, out);
  }
}
