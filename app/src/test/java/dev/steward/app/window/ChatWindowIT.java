package dev.steward.app.window;

import static dev.steward.app.FakeOllama.call;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.app.FakeOllama;
import dev.steward.app.FakeOllama.Reply;
import dev.steward.app.ModelStub;
import dev.steward.app.agent.CallState;
import dev.steward.app.chat.CallCard;
import dev.steward.app.chat.MessageEntry;
import dev.steward.protocol.json.CanonicalJson;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Audit;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.StreamSupport;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.text.Text;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The chat window on a real (headless) stage, against the real service process and a loopback
 * server that speaks Ollama's API to the production langchain4j client ({@link OpenAiChatWindowIT}
 * runs the same conversations against OpenAI's API).
 */
class ChatWindowIT {

  private ModelStub ollama;
  private WindowHarness window;

  /** The model server the conversations run against. */
  ModelStub newStub() throws Exception {
    return new FakeOllama();
  }

  private ObjectNode settingsFor(ModelStub stub) {
    ObjectNode settings = Json.object();
    stub.configure(settings);
    return settings;
  }

  private WindowHarness open(ObjectNode settings) throws Exception {
    window = WindowHarness.start(settings);
    return window;
  }

  private WindowHarness openWithModel() throws Exception {
    ollama = newStub();
    return open(settingsFor(ollama));
  }

  @AfterEach
  void close() throws Exception {
    if (window != null) window.close();
    if (ollama != null) ollama.close();
  }

  @Test
  void aQuestionStreamsAnAnswerRenderedAsMarkdown() throws Exception {
    WindowHarness w = openWithModel();
    w.waitFor(() -> ollama.modelName().equals(w.app.chat().modelNameProperty().get()));
    ollama.enqueue(Reply.text("Hello", ", this is ", "**Steward**", "."));
    w.robot.clickOn("#input").write("Who are you?");
    w.robot.type(javafx.scene.input.KeyCode.ENTER);
    w.waitFor(() -> w.messages(MessageEntry.Kind.ASSISTANT).size() == 1
        && w.messages(MessageEntry.Kind.ASSISTANT)
            .get(0)
            .text()
            .equals("Hello, this is **Steward**."));
    w.waitForTurnEnd();
    assertEquals("Who are you?", w.messages(MessageEntry.Kind.USER).get(0).text());
    // Markdown: the bold run is its own Text node, styled bold.
    w.waitFor(() -> w.robot.lookup(".md-bold").queryAll().stream()
        .anyMatch(n -> ((Text) n).getText().equals("Steward")));
    JsonNode request = ollama.chatRequests().get(0);
    assertEquals(ollama.modelName(), request.get("model").asText());
    assertTrue(request.get("stream").asBoolean());
    List<String> tools = StreamSupport.stream(request.get("tools").spliterator(), false)
        .map(t -> t.at("/function/name").asText())
        .toList();
    assertTrue(tools.contains("files__write_text"), tools.toString());
    assertTrue(tools.stream().allMatch(t -> t.matches("[a-zA-Z0-9_-]+")), tools.toString());
    assertEquals("", w.app.chat().bannerProperty().get());
  }

  @Test
  void anApprovedOverwriteShowsItsDiffRunsAndIsAudited() throws Exception {
    WindowHarness w = openWithModel();
    Path file = w.workspace.resolve("notes.txt");
    Files.writeString(file, "old line\n");
    ollama.enqueue(
        Reply.calls(call(
            "files__write_text", "{\"path\":\"~/Steward/notes.txt\",\"content\":\"new line\\n\"}")),
        Reply.text(
            "I replaced the text of `notes.txt`.",
            "\n\n- the old text is kept, so **Undo** can restore it\n",
            "- the change is in the audit log"));
    w.type("Replace my notes");
    w.waitForDialog();
    TextArea diff = w.robot.lookup(".approval-diff").queryAs(TextArea.class);
    assertTrue(
        diff.getText().contains("-old line") && diff.getText().contains("+new line"),
        diff.getText());
    CallCard card = w.cards().get(0);
    assertEquals(CallState.WAITING, card.state());
    w.screenshot("chat-waiting");
    w.screenshot("approval", 1);
    w.click("#approve");
    w.waitFor(() -> card.state() == CallState.DONE);
    w.waitForTurnEnd();
    assertEquals("new line\n", Files.readString(file));
    List<Audit.Row> rows = w.auditRows("files.write_text");
    assertTrue(rows.stream().anyMatch(r -> "confirmed".equals(r.decision())), rows.toString());
    // The model got the result back, marked as untrusted data.
    JsonNode second = ollama.chatRequests().get(1);
    JsonNode last = second.get("messages").get(second.get("messages").size() - 1);
    assertEquals("tool", last.get("role").asText());
    assertTrue(last.get("content").asText().contains("<untrusted>"), last.toString());
    w.waitFor(() -> w.messages(MessageEntry.Kind.ASSISTANT).stream()
        .anyMatch(m -> m.text().endsWith("audit log")));
    w.screenshot("chat");
  }

  @Test
  void alwaysAllowHereLetsTheNextMatchingCallRunWithoutAsking() throws Exception {
    WindowHarness w = openWithModel();
    // A grant covers a file's own folder, never the whole workspace: the files are in one of its
    // folders.
    Files.createDirectories(w.workspace.resolve("notes"));
    Files.writeString(w.workspace.resolve("notes/one.txt"), "1\n");
    Files.writeString(w.workspace.resolve("notes/two.txt"), "2\n");
    ollama.enqueue(
        Reply.calls(call(
            "files__write_text", "{\"path\":\"~/Steward/notes/one.txt\",\"content\":\"one\\n\"}")),
        Reply.text("First done."),
        Reply.calls(call(
            "files__write_text", "{\"path\":\"~/Steward/notes/two.txt\",\"content\":\"two\\n\"}")),
        Reply.text("Second done."));
    w.type("Rewrite one");
    w.waitForDialog();
    w.waitFor(() -> w.robot
        .lookup("#always")
        .match(org.testfx.util.NodeQueryUtils.isVisible())
        .tryQuery()
        .isPresent());
    w.click("#always");
    w.waitFor(() -> w.cards().size() == 1 && w.cards().get(0).state() == CallState.DONE);
    w.waitForTurnEnd();
    w.type("Rewrite two");
    w.waitFor(() -> w.cards().size() == 2 && w.cards().get(1).state().finished());
    w.waitForTurnEnd();
    assertEquals(CallState.DONE, w.cards().get(1).state(), w.transcript());
    assertEquals("two\n", Files.readString(w.workspace.resolve("notes/two.txt")));
    Audit.Row second = w.auditRows("files.write_text").stream()
        .filter(r -> "decision".equals(r.kind())
            && r.argsPreview() != null
            && r.argsPreview().contains("two.txt"))
        .findFirst()
        .orElseThrow();
    assertEquals("allowed", second.decision(), "the standing grant let it run without a token");
  }

  @Test
  void enterApprovesAndEscapeDenies() throws Exception {
    WindowHarness w = openWithModel();
    Files.writeString(w.workspace.resolve("k1.txt"), "1\n");
    Files.writeString(w.workspace.resolve("k2.txt"), "2\n");
    ollama.enqueue(
        Reply.calls(call(
                "files__write_text", "{\"path\":\"~/Steward/k1.txt\",\"content\":\"one\\n\"}")),
            Reply.text("ok"),
        Reply.calls(call(
                "files__write_text", "{\"path\":\"~/Steward/k2.txt\",\"content\":\"two\\n\"}")),
            Reply.text("ok"));
    w.type("First");
    w.waitForDialog();
    w.robot.type(javafx.scene.input.KeyCode.ENTER);
    w.waitFor(() -> w.cards().size() == 1 && w.cards().get(0).state() == CallState.DONE);
    w.waitForTurnEnd();
    w.type("Second");
    w.waitForDialog();
    w.robot.type(javafx.scene.input.KeyCode.ESCAPE);
    w.waitFor(() -> w.cards().size() == 2 && w.cards().get(1).state() == CallState.DECLINED);
    w.waitForTurnEnd();
    assertEquals("one\n", Files.readString(w.workspace.resolve("k1.txt")));
    assertEquals("2\n", Files.readString(w.workspace.resolve("k2.txt")));
  }

  @Test
  void aFileWrittenWhileTheDialogIsOpenIsShownAgainSayingSo() throws Exception {
    WindowHarness w = openWithModel();
    Path file = w.workspace.resolve("draft.txt");
    Files.writeString(file, "first draft\n");
    ollama.enqueue(
        Reply.calls(call(
            "files__write_text", "{\"path\":\"~/Steward/draft.txt\",\"content\":\"final\\n\"}")),
        Reply.text("ok"));
    w.type("Finish the draft");
    w.waitForDialog();
    Thread.sleep(20); // past the clock tick that stamps a file's change time
    Files.writeString(file, "someone else's draft\n");
    w.robot.type(javafx.scene.input.KeyCode.ENTER);
    // Nothing ran on the click: the dialog is back, saying what changed, with the diff as it is
    // now.
    w.waitFor(() -> w.robot.lookup("#approval-shown-again").tryQuery().isPresent());
    w.waitForDialog();
    String said = w.robot
        .lookup("#approval-shown-again")
        .queryAs(javafx.scene.control.Label.class)
        .getText();
    assertTrue(said.contains(file.toRealPath() + " was written"), said);
    assertEquals("someone else's draft\n", Files.readString(file));
    w.robot.type(javafx.scene.input.KeyCode.ENTER);
    w.waitFor(() -> w.cards().size() == 1 && w.cards().get(0).state() == CallState.DONE);
    assertEquals("final\n", Files.readString(file));
  }

  @Test
  void aHighRiskCallIsDeniedByEnterIgnoresSpaceAndIsApprovedOnlyByCtrlEnter() throws Exception {
    WindowHarness w = openWithModel();
    Path first = Files.writeString(w.workspace.resolve("old-1.txt"), "1\n");
    Path second = Files.writeString(w.workspace.resolve("old-2.txt"), "2\n");
    ollama.enqueue(
        Reply.calls(call("files__delete", "{\"path\":\"~/Steward/old-1.txt\"}")),
        Reply.text("ok"),
        Reply.calls(call("files__delete", "{\"path\":\"~/Steward/old-2.txt\"}")),
        Reply.text("ok"));
    w.type("Tidy up");
    w.waitForDialog();
    Button approve = w.robot.lookup("#approve").queryAs(Button.class);
    Button deny = w.robot.lookup("#deny").queryAs(Button.class);
    assertEquals("Approve once (Ctrl+Enter)", approve.getText());
    assertEquals("Deny (Enter, Esc)", deny.getText());
    assertEquals("high", w.robot.lookup(".risk-badge").queryLabeled().getText());
    w.waitFor(() -> !approve.isDisabled());
    // Space on a focused Approve would fire any other button: not this one.
    w.robot.interact(approve::requestFocus);
    w.waitFor(approve::isFocused);
    w.robot.type(javafx.scene.input.KeyCode.SPACE);
    Thread.sleep(500);
    assertTrue(Files.exists(first), "Space did not approve a high-risk call");
    assertTrue(approve.getScene().getWindow().isShowing(), "the dialog still asks");
    w.robot
        .press(javafx.scene.input.KeyCode.CONTROL)
        .type(javafx.scene.input.KeyCode.ENTER)
        .release(javafx.scene.input.KeyCode.CONTROL);
    w.waitFor(() -> w.cards().size() == 1 && w.cards().get(0).state() == CallState.DONE);
    w.waitForTurnEnd();
    assertFalse(Files.exists(first));

    w.type("And the other one");
    w.waitForDialog();
    w.waitFor(() -> !w.robot.lookup("#approve").queryAs(Button.class).isDisabled());
    w.robot.type(javafx.scene.input.KeyCode.ENTER);
    w.waitFor(() -> w.cards().size() == 2 && w.cards().get(1).state() == CallState.DECLINED);
    w.waitForTurnEnd();
    assertTrue(Files.exists(second), "Enter denied the high-risk call");
  }

  @Test
  void stopAndEscEndAStreamingAnswer() throws Exception {
    WindowHarness w = openWithModel();
    String[] chunks = new String[60];
    java.util.Arrays.fill(chunks, "word ");
    ollama.enqueue(Reply.slowText(Duration.ofMillis(100), chunks));
    w.type("Tell me a long story");
    w.waitFor(() -> !w.messages(MessageEntry.Kind.ASSISTANT).isEmpty());
    w.robot.clickOn("#stop");
    w.waitForTurnEnd();
    String told = w.messages(MessageEntry.Kind.ASSISTANT).get(0).text();
    assertTrue(told.length() < 5 * 60, "the stream was cut short: " + told.length() + " chars");
    assertTrue(
        w.messages(MessageEntry.Kind.NOTICE).stream().anyMatch(m -> m.text().equals("Stopped.")),
        w.transcript());

    ollama.enqueue(Reply.slowText(Duration.ofMillis(100), chunks));
    w.type("Another long one");
    w.waitFor(() -> w.messages(MessageEntry.Kind.ASSISTANT).size() == 2);
    w.robot.push(javafx.scene.input.KeyCode.ESCAPE);
    w.waitForTurnEnd();
    assertTrue(
        w.messages(MessageEntry.Kind.ASSISTANT).get(1).text().length() < 5 * 60,
        "Esc stops it too");
  }

  @Test
  void theConversationCannotChangeUnderARunningTurn() throws Exception {
    WindowHarness w = openWithModel();
    w.waitFor(() -> w.app.history() != null && w.app.history().conversations().size() == 1);
    String[] chunks = new String[60];
    java.util.Arrays.fill(chunks, "word ");
    ollama.enqueue(Reply.slowText(Duration.ofMillis(100), chunks));
    w.type("Tell me a long story");
    w.waitFor(() -> !w.messages(MessageEntry.Kind.ASSISTANT).isEmpty());
    // The New button's action while the answer streams: what is still said would be saved under
    // the new conversation, whose taint the service keeps apart.
    w.robot.interact(() -> w.app.history().newConversation());
    Thread.sleep(500);
    w.robot.interact(() -> {});
    assertEquals(
        1, w.app.history().conversations().size(), "no new conversation while the turn runs");
    w.robot.clickOn("#stop");
    w.waitForTurnEnd();
    w.robot.interact(() -> w.app.history().newConversation());
    w.waitFor(() -> w.app.history().conversations().size() == 2);
  }

  @Test
  void denyChangesNothingAndTellsTheModel() throws Exception {
    WindowHarness w = openWithModel();
    Path file = w.workspace.resolve("keep.txt");
    Files.writeString(file, "keep me\n");
    ollama.enqueue(
        Reply.calls(
            call("files__write_text", "{\"path\":\"~/Steward/keep.txt\",\"content\":\"gone\"}")),
        Reply.text("Understood."));
    w.type("Overwrite keep.txt");
    w.waitForDialog();
    w.click("#deny");
    CallCard card = w.cards().get(0);
    w.waitFor(() -> card.state() == CallState.DECLINED);
    w.waitForTurnEnd();
    assertEquals("keep me\n", Files.readString(file));
    assertEquals(
        "declined by you",
        w.robot.lookup("#state-" + card.callId()).queryLabeled().getText());
    assertTrue(card.detail().contains("declined"), card.detail());
    JsonNode second = ollama.chatRequests().get(1);
    JsonNode last = second.get("messages").get(second.get("messages").size() - 1);
    assertTrue(last.get("content").asText().contains("declined"), last.toString());
  }

  @Test
  void aCodeRunsDialogShowsItsProgramColouredAndFollowsAnEdit() throws Exception {
    Path base = Files.createTempDirectory("steward-code-dialog-");
    Path config = Files.createDirectories(base.resolve("steward-home/config"));
    Files.writeString(
        config.resolve("policy.json"),
        Json.write(dev.steward.protocol.policy.PolicyDocument.defaults()
            .withCode(
                new dev.steward.protocol.policy.PolicyDocument.Code(true, false, "~/Steward"))));
    window = WindowHarness.start(base, WindowHarness.settings("http://127.0.0.1:9"));
    WindowHarness w = window;
    w.type(
        "/call code.run {\"language\":\"python\",\"code\":\"def f():\\n    return 'hi'  # greet\\nprint(f())\"}");
    w.waitForDialog();
    javafx.scene.text.TextFlow code =
        w.robot.lookup(".highlighted-code").queryAs(javafx.scene.text.TextFlow.class);
    w.waitFor(() -> styled(code, "code-keyword").contains("def")
        && styled(code, "code-string").contains("'hi'")
        && styled(code, "code-comment").contains("# greet"));
    assertEquals("def f():\n    return 'hi'  # greet\nprint(f())", shownText(code));
    w.screenshot("approval-code", 1);

    TextArea args = w.robot.lookup(".approval-args").queryAs(TextArea.class);
    w.robot.interact(() -> args.setText("{\"language\":\"bash\",\"code\":\"echo $HOME\"}"));
    w.waitFor(() ->
        styled(code, "code-variable").contains("$HOME") && shownText(code).equals("echo $HOME"));
    // A program that runs what it reads: the input stands beside it.
    assertFalse(showing(w.robot.lookup(".approval-given").queryAs(Label.class)));
    w.robot.interact(() ->
        args.setText("{\"language\":\"python\",\"code\":\"import sys; exec(sys.stdin.read())\","
            + "\"args\":[\"--all\"],\"env\":{\"P\":\"print(1)\"},"
            + "\"stdin\":\"import os\\nos.remove('notes.md')\"}"));
    Label input = w.robot.lookup(".approval-given").queryAs(Label.class);
    w.waitFor(() -> showing(input)
        && input
            .getText()
            .equals("Arguments:\n  --all\nVariables:\n  P=print(1)\n"
                + "Input (stdin):\nimport os\nos.remove('notes.md')"));
    w.click("#deny");
    w.waitForTurnEnd();
  }

  /** Whether the node and every parent of it are shown. */
  private static boolean showing(javafx.scene.Node node) {
    for (javafx.scene.Node n = node; n != null; n = n.getParent()) {
      if (!n.isVisible()) return false;
    }
    return true;
  }

  private static List<String> styled(javafx.scene.text.TextFlow flow, String styleClass) {
    return flow.getChildren().stream()
        .filter(n -> n.getStyleClass().contains(styleClass))
        .map(n -> ((Text) n).getText())
        .toList();
  }

  private static String shownText(javafx.scene.text.TextFlow flow) {
    StringBuilder sb = new StringBuilder();
    flow.getChildren().forEach(n -> sb.append(((Text) n).getText()));
    return sb.toString();
  }

  @Test
  void theDialogDescribesTheEditedCallAndTheKeyboardApprovesIt() throws Exception {
    WindowHarness w = openWithModel();
    Path asked = w.workspace.resolve("asked.txt");
    Path other = w.workspace.resolve("other.txt");
    Files.writeString(asked, "asked v1\n");
    Files.writeString(other, "other v1\n");
    ollama.enqueue(
        Reply.calls(call(
            "files__write_text", "{\"path\":\"~/Steward/asked.txt\",\"content\":\"asked v2\\n\"}")),
        Reply.text("Done."));
    w.type("Update it");
    w.waitForDialog();
    TextArea args = w.robot.lookup(".approval-args").queryAs(TextArea.class);
    Label touches = w.robot
        .lookup((javafx.scene.Node n) -> n.getId() != null && n.getId().startsWith("touches-"))
        .queryAs(Label.class);
    TextArea diff = w.robot.lookup(".approval-diff").queryAs(TextArea.class);
    assertTrue(
        touches.getText().contains("asked.txt") && diff.getText().contains("-asked v1"),
        touches.getText() + " / " + diff.getText());

    // Edit by keyboard: the headline, the folders and the diff follow the editor, and Approve waits
    // for them.
    w.robot.clickOn(args);
    w.robot
        .press(javafx.scene.input.KeyCode.CONTROL)
        .type(javafx.scene.input.KeyCode.A)
        .release(javafx.scene.input.KeyCode.CONTROL);
    String edited = "{\"path\":\"~/Steward/other.txt\",\"content\":\"other v2\\n\"}";
    w.robot.write(edited);
    w.waitFor(() -> touches.getText().contains("other.txt")
        && diff.getText().contains("-other v1")
        && !diff.getText().contains("asked")
        && !w.robot.lookup("#approve").queryAs(Button.class).isDisabled());
    assertTrue(w.robot.lookup(".approval-words").queryLabeled().getText().contains("other.txt"));
    w.robot.type(javafx.scene.input.KeyCode.TAB);
    w.waitFor(() -> w.robot.lookup("#approve").queryAs(Button.class).isFocused());
    assertEquals(edited, args.getText(), "Tab left the editor without typing into it");
    w.robot.type(javafx.scene.input.KeyCode.ENTER);
    CallCard card = w.cards().get(0);
    w.waitFor(() -> card.state() == CallState.DONE);
    w.waitForTurnEnd();
    assertEquals("other v2\n", Files.readString(other));
    assertEquals(
        "asked v1\n", Files.readString(asked), "the call that ran is the one the dialog showed");
    String hash = CanonicalJson.sha256(Json.parse(edited));
    assertTrue(w.auditRows("files.write_text").stream()
        .anyMatch(r -> hash.equals(r.argsHash())
            && "confirmed".equals(r.decision())
            && r.argsPreview().contains("other.txt")));
  }

  @Test
  void editedArgumentsAreWhatRuns() throws Exception {
    WindowHarness w = openWithModel();
    Path file = w.workspace.resolve("plan.txt");
    Files.writeString(file, "v1\n");
    ollama.enqueue(
        Reply.calls(call(
            "files__write_text",
            "{\"path\":\"~/Steward/plan.txt\",\"content\":\"v2 from the model\\n\"}")),
        Reply.text("Done."));
    w.type("Update the plan");
    w.waitForDialog();
    TextArea args = w.robot.lookup(".approval-args").queryAs(TextArea.class);
    String edited = "{\"path\":\"~/Steward/plan.txt\",\"content\":\"v2 as the user wants it\\n\"}";
    w.robot.interact(() -> args.setText("{\"path\": 42, \"content\": \"x\"}"));
    // Live validation by the gate: the wrong type is named, and Approve is off.
    w.waitFor(() -> w.robot.lookup(".approval-problem").queryLabeled().getText().contains("/path"));
    assertTrue(w.robot.lookup("#approve").queryAs(Button.class).isDisabled());
    w.robot.interact(() -> args.setText(edited));
    w.waitFor(() -> !w.robot.lookup("#approve").queryAs(Button.class).isDisabled());
    w.click("#approve");
    CallCard card = w.cards().get(0);
    w.waitFor(() -> card.state() == CallState.DONE);
    w.waitForTurnEnd();
    assertEquals("v2 as the user wants it\n", Files.readString(file));
    String hash = CanonicalJson.sha256(Json.parse(edited));
    assertTrue(w.auditRows("files.write_text").stream()
        .anyMatch(r -> hash.equals(r.argsHash()) && "confirmed".equals(r.decision())));
    JsonNode second = ollama.chatRequests().get(1);
    String told = second
        .get("messages")
        .get(second.get("messages").size() - 1)
        .get("content")
        .asText();
    assertTrue(
        told.contains("edited the arguments") && told.contains("v2 as the user wants it"), told);
  }

  @Test
  void threeProposedWritesMakeOneDialogAndOnlyTheTickedOnesRun() throws Exception {
    WindowHarness w = openWithModel();
    for (String n : List.of("a", "b", "c"))
      Files.writeString(w.workspace.resolve(n + ".txt"), "old " + n + "\n");
    ollama.enqueue(
        Reply.calls(
            call("files__write_text", "{\"path\":\"~/Steward/a.txt\",\"content\":\"new a\\n\"}"),
            call("files__write_text", "{\"path\":\"~/Steward/b.txt\",\"content\":\"new b\\n\"}"),
            call("files__write_text", "{\"path\":\"~/Steward/c.txt\",\"content\":\"new c\\n\"}")),
        Reply.text("Two of three done."));
    w.type("Rewrite a, b and c");
    w.waitForDialog();
    List<CheckBox> ticks = w
        .robot
        .lookup(n -> n.getId() != null && n.getId().startsWith("tick-"))
        .queryAllAs(CheckBox.class)
        .stream()
        .toList();
    assertEquals(3, ticks.size(), w.transcript());
    assertEquals(
        1,
        w.robot.listTargetWindows().stream()
            .filter(win -> win.getScene().lookup("#approve") != null)
            .count());
    // What Approve runs is named beside it, the call below the fold as well.
    String summary = w.robot.lookup("#approval-summary").queryAs(Label.class).getText();
    assertTrue(summary.startsWith("Approve runs 3 of 3 calls"), summary);
    for (String n : List.of("a", "b", "c")) assertTrue(summary.contains(n + ".txt"), summary);
    CallCard third = w.cards().get(2);
    Node thirdTick = w.robot.lookup("#tick-" + third.callId()).query();
    w.robot.interact(() -> w.robot
        .lookup(".approval-dialog .scroll-pane")
        .queryAs(javafx.scene.control.ScrollPane.class)
        .setVvalue(1.0));
    w.robot.clickOn(thirdTick);
    w.waitFor(() -> w.robot
        .lookup("#approval-summary")
        .queryAs(Label.class)
        .getText()
        .startsWith("Approve runs 2 of 3 calls"));
    w.click("#approve");
    w.waitFor(() -> w.cards().stream().allMatch(c -> c.state().finished()));
    w.waitForTurnEnd();
    assertEquals("new a\n", Files.readString(w.workspace.resolve("a.txt")));
    assertEquals("new b\n", Files.readString(w.workspace.resolve("b.txt")));
    assertEquals("old c\n", Files.readString(w.workspace.resolve("c.txt")));
    assertEquals(CallState.DECLINED, third.state());
    assertTrue(third.detail().contains("declined"));
    // One token covered both approved calls.
    List<Audit.Row> confirmed = w.auditRows("files.write_text").stream()
        .filter(r -> "decision".equals(r.kind()) && "confirmed".equals(r.decision()))
        .toList();
    assertEquals(2, confirmed.size());
    assertEquals(1, confirmed.stream().map(Audit.Row::tokenId).distinct().count());
  }

  @Test
  void anExpiredApprovalSaysSoAndCanBeAskedAgain() throws Exception {
    ollama = newStub();
    ObjectNode settings = settingsFor(ollama);
    settings.put("confirm_ttl_s", 4);
    WindowHarness w = open(settings);
    Path file = w.workspace.resolve("slow.txt");
    Files.writeString(file, "before\n");
    ollama.enqueue(
        Reply.calls(call(
            "files__write_text", "{\"path\":\"~/Steward/slow.txt\",\"content\":\"after\\n\"}")),
        Reply.text("Too slow."),
        Reply.text("Changed it."));
    w.type("Change slow.txt");
    w.waitForDialog();
    w.waitFor(
        () -> w.robot.lookup("#approval-countdown").queryLabeled().getText().startsWith("Only "));
    CallCard card = w.cards().get(0);
    w.waitFor(() -> card.state() == CallState.EXPIRED);
    w.waitForTurnEnd();
    assertTrue(card.detail().contains("TOKEN_EXPIRED"), card.detail());
    assertFalse(
        w.robot.lookup("#approve").tryQuery().isPresent(), "the dialog closes when its time is up");
    assertEquals("before\n", Files.readString(file));

    // Ask again: the same call, a fresh check and dialog; approved, it runs and the model goes on.
    w.click("#ask-again-" + card.callId());
    w.waitForDialog();
    w.click("#approve");
    w.waitFor(() -> w.cards().size() == 2 && w.cards().get(1).state() == CallState.DONE);
    w.waitForTurnEnd();
    assertEquals("after\n", Files.readString(file));
    assertFalse(
        w.robot.lookup("#ask-again-" + card.callId()).queryButton().isVisible(), "asked once");
    JsonNode resumed = ollama.chatRequests().get(ollama.chatRequests().size() - 1);
    JsonNode messages = resumed.get("messages");
    assertEquals(
        "tool",
        messages.get(messages.size() - 1).get("role").asText(),
        "the model hears how the call went");
  }

  @Test
  void withoutAModelServerTheBannerShowsAndCommandsStillWork() throws Exception {
    WindowHarness w = open(WindowHarness.settings("http://127.0.0.1:9"));
    w.waitFor(() -> w.app.chat().bannerProperty().get().contains("ollama pull"));
    assertTrue(w.robot.lookup("#banner").queryLabeled().isVisible());
    Files.writeString(w.workspace.resolve("hello.txt"), "hi");
    w.type("/call files.list_dir {\"path\":\"~/Steward\"}");
    w.waitFor(() -> !w.cards().isEmpty() && w.cards().get(0).state() == CallState.DONE);
    w.waitForTurnEnd();
    assertTrue(w.cards().get(0).resultProperty().get().contains("hello.txt"));
    assertTrue(
        w.app.chat().entries().stream()
            .noneMatch(e -> e instanceof MessageEntry m && m.text().contains("untrusted")),
        "the text meant for a model never shows in the chat");
    assertEquals(
        1,
        w.auditRows("files.list_dir").stream()
            .filter(r -> "decision".equals(r.kind()) && "allowed".equals(r.decision()))
            .count());
    w.type("/tools");
    w.waitFor(() -> w.messages(MessageEntry.Kind.NOTICE).stream()
        .anyMatch(m -> m.text().contains("files.delete (high)")));
    w.type("hello?");
    w.waitFor(() -> w.messages(MessageEntry.Kind.ERROR).stream()
        .anyMatch(m -> m.text().contains("No model server")));

    // The banner offers Settings; a server saved there is used from the next message.
    javafx.scene.control.TabPane tabs =
        w.robot.lookup("#tabs").queryAs(javafx.scene.control.TabPane.class);
    w.click("#banner-settings");
    w.waitFor(() -> tabs.getSelectionModel().getSelectedIndex() == 2);
    FakeOllama server = new FakeOllama();
    ollama = server;
    server.enqueue(Reply.text("Hello from the new server."));
    w.robot.interact(() -> {
      w.app.settings().model().urlProperty().set(server.url());
      assertTrue(w.app.settings().model().save());
      tabs.getSelectionModel().select(0);
    });
    w.waitFor(() -> w.app.chat().bannerProperty().get().isEmpty());
    // The message that found no model is answered by Retry, not typed again.
    w.click(".message-retry");
    w.waitFor(() -> w.messages(MessageEntry.Kind.ASSISTANT).stream()
        .anyMatch(m -> m.text().contains("Hello from the new server.")));
    assertEquals(1, userMessages(server.chatRequests().get(0), "hello?"));
  }

  /** How many times the request gave the model this user message. */
  private static long userMessages(JsonNode request, String text) {
    return StreamSupport.stream(request.get("messages").spliterator(), false)
        .filter(m ->
            m.get("role").asText().equals("user") && m.get("content").asText().equals(text))
        .count();
  }

  @Test
  void aFailedAnswerOffersRetryAndTheReplyFollowsTheCards() throws Exception {
    WindowHarness w = openWithModel();
    w.waitFor(() -> ollama.modelName().equals(w.app.chat().modelNameProperty().get()));
    Files.writeString(w.workspace.resolve("week.txt"), "Monday: dentist\n");
    ollama.enqueue(
        Reply.calls(call("files__read_text", "{\"path\":\"~/Steward/week.txt\"}")),
        Reply.failure(500, "model runner has unexpectedly stopped"));
    w.type("What is on this week?");
    w.waitFor(() -> w.cards().size() == 1 && w.cards().get(0).state() == CallState.DONE);
    w.waitFor(() -> w.app.chat().retryableProperty().get() != null);
    w.waitForTurnEnd();
    Button retry = w.robot.lookup(".message-retry").queryButton();
    assertTrue(retry.isVisible());
    ollama.enqueue(Reply.text("On Monday you see the dentist."));
    w.click(".message-retry");
    w.waitFor(() -> w.messages(MessageEntry.Kind.ASSISTANT).stream()
        .anyMatch(m -> m.text().equals("On Monday you see the dentist.")));
    w.waitForTurnEnd();
    assertFalse(retry.isVisible(), "answered: nothing to retry");
    JsonNode again = ollama.chatRequests().get(ollama.chatRequests().size() - 1);
    assertEquals(1, userMessages(again, "What is on this week?"));
    JsonNode last = again.get("messages").get(again.get("messages").size() - 1);
    assertEquals("tool", last.get("role").asText(), "asked again from the call's result");
    // The reply comes after the card and the failure, in the order they happened.
    List<String> order = w.app.chat().entries().stream()
        .map(e -> e instanceof CallCard
            ? "card"
            : ((MessageEntry) e).kind().name().toLowerCase(java.util.Locale.ROOT))
        .toList();
    assertEquals("user", order.get(0));
    int card = order.indexOf("card");
    int error = order.indexOf("error");
    int reply = order.lastIndexOf("assistant");
    assertTrue(
        card > 0 && card < error && error < reply && reply == order.size() - 1, order.toString());
  }

  @Test
  void aKilledServiceIsRestartedAndTheNextCallWorks() throws Exception {
    WindowHarness w = open(WindowHarness.settings("http://127.0.0.1:9"));
    ProcessHandle first = w.app.supervisor().startedProcess().orElseThrow();
    first.destroyForcibly();
    w.waitFor(() -> !first.isAlive());
    w.waitFor(() -> w.app.chat().serviceProperty().get()
        != dev.steward.protocol.service.ServiceState.CONNECTED);
    w.waitFor(
        Duration.ofSeconds(90),
        () -> w.app.chat().serviceProperty().get()
            == dev.steward.protocol.service.ServiceState.CONNECTED);
    ProcessHandle second = w.app.supervisor().startedProcess().orElseThrow();
    assertTrue(
        second.isAlive() && second.pid() != first.pid(),
        first + " then " + second + " alive " + second.isAlive());
    Files.writeString(w.workspace.resolve("after.txt"), "x");
    w.type("/call files.list_dir {\"path\":\"~/Steward\"}");
    w.waitFor(
        Duration.ofSeconds(60),
        () -> !w.cards().isEmpty() && w.cards().get(0).state().finished());
    assertEquals(CallState.DONE, w.cards().get(0).state(), w.transcript());
    assertTrue(
        w.cards().get(0).resultProperty().get().contains("after.txt"),
        w.cards().get(0).resultProperty().get());
  }

  @Test
  void theShortcutsPeopleExpect() throws Exception {
    WindowHarness w = open(WindowHarness.settings("http://127.0.0.1:9"));
    javafx.scene.control.TabPane tabs =
        w.robot.lookup("#tabs").queryAs(javafx.scene.control.TabPane.class);
    javafx.scene.control.TextArea input =
        w.robot.lookup("#input").queryAs(javafx.scene.control.TextArea.class);
    w.waitFor(() -> w.app.history() != null && w.app.history().conversations().size() == 1);
    w.robot.push(javafx.scene.input.KeyCode.CONTROL, javafx.scene.input.KeyCode.COMMA);
    w.waitFor(() -> tabs.getSelectionModel().getSelectedIndex() == 2);
    w.robot.push(javafx.scene.input.KeyCode.CONTROL, javafx.scene.input.KeyCode.L);
    w.waitFor(() -> tabs.getSelectionModel().getSelectedIndex() == 0 && input.isFocused());
    w.robot.push(javafx.scene.input.KeyCode.CONTROL, javafx.scene.input.KeyCode.SLASH);
    w.waitFor(() ->
        w.messages(MessageEntry.Kind.NOTICE).stream().anyMatch(m -> m.text().contains("Ctrl+N")));

    w.type("/tools");
    w.waitForTurnEnd();
    w.robot.clickOn("#input");
    w.robot.push(javafx.scene.input.KeyCode.UP);
    w.waitFor(() -> input.getText().equals("/tools"));

    // Ctrl+F: find in the conversation; Enter goes on, Esc closes.
    w.robot.push(javafx.scene.input.KeyCode.CONTROL, javafx.scene.input.KeyCode.F);
    javafx.scene.control.TextField find =
        w.robot.lookup("#find-text").queryAs(javafx.scene.control.TextField.class);
    w.waitFor(find::isFocused);
    w.robot.write("ctrl+n");
    w.waitFor(() -> w.robot.lookup("#find-status").queryLabeled().getText().equals("1 of 1"));
    w.waitFor(() -> w.robot.lookup(".found").tryQuery().isPresent());
    w.robot.push(javafx.scene.input.KeyCode.ESCAPE);
    w.waitFor(() -> !w.robot.lookup("#find-bar").query().isVisible()
        && w.robot.lookup(".found").tryQuery().isEmpty());

    w.robot.interact(() -> input.setText(""));
    w.robot.push(javafx.scene.input.KeyCode.CONTROL, javafx.scene.input.KeyCode.N);
    w.waitFor(() ->
        w.app.history().conversations().size() == 2 && w.app.chat().entries().isEmpty());
  }
}
