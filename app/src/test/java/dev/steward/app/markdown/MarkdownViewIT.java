package dev.steward.app.markdown;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.Callable;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.ScrollPane;
import javafx.scene.input.Clipboard;
import javafx.scene.input.KeyCode;
import javafx.scene.input.MouseButton;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.StackPane;
import javafx.scene.shape.Path;
import javafx.scene.text.Text;
import javafx.scene.text.TextFlow;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * A message's text on a real (headless) stage: GitHub's Markdown (tables, nested and task lists,
 * strikethrough), code blocks that scroll sideways, and text selected with the mouse and copied.
 */
class MarkdownViewIT {

  private static Stage stage;
  private final FxRobot robot = new FxRobot();

  @BeforeAll
  static void stage() throws Exception {
    stage = FxToolkit.registerPrimaryStage();
    fx(() -> {
      javafx.application.Application.setUserAgentStylesheet(
          new atlantafx.base.theme.PrimerLight().getUserAgentStylesheet());
      return null;
    });
  }

  @AfterAll
  static void cleanUp() throws Exception {
    FxToolkit.cleanupStages();
  }

  private MarkdownView show(String text, boolean markdown, double width) throws Exception {
    MarkdownView view = fx(() -> {
      MarkdownView v = new MarkdownView();
      if (markdown) v.setMarkdown(text);
      else v.setPlainText(text);
      StackPane root = new StackPane(v);
      root.setAlignment(javafx.geometry.Pos.TOP_LEFT);
      Scene scene = new Scene(root, width, 500);
      scene
          .getStylesheets()
          .add(MarkdownView.class.getResource("/dev/steward/app/steward.css").toExternalForm());
      stage.setScene(scene);
      stage.show();
      return v;
    });
    WaitForAsyncUtils.waitForFxEvents();
    return view;
  }

  private static <T> T fx(Callable<T> c) throws Exception {
    return WaitForAsyncUtils.asyncFx(c).get();
  }

  private static String clipboard() throws Exception {
    return fx(() -> Clipboard.getSystemClipboard().getString());
  }

  private static void clearClipboard() throws Exception {
    fx(() -> {
      Clip.put("");
      return null;
    });
  }

  @Test
  void hiddenCharactersInProseInlineCodeAndALanguageAreWrittenOut() throws Exception {
    String tag = new String(Character.toChars(0xE0041));
    MarkdownView v = show(
        "Open invoice\u202egpj.exe now" + tag + ", or run `rm\u200b -rf\u2066 x`.\n\n"
            + "```sh\u202e\necho hi\n```\n\nنامه\u200cها \u200fدنیا\u200f 👍🏽 ⚠\ufe0f"
            + " 👨\u200d👩\u200d👧",
        true,
        600);
    String shown = robot.from(v).lookup(".md-text").queryAllAs(Text.class).stream()
        .map(Text::getText)
        .reduce("", String::concat);
    assertTrue(shown.contains("invoice\\u202egpj.exe now\\udb40\\udc41,"), shown);
    assertTrue(shown.contains("rm\\u200b -rf\\u2066 x"), shown);
    assertTrue(
        shown.contains("نامه\u200cها \u200fدنیا\u200f 👍🏽 ⚠\ufe0f 👨\u200d👩\u200d👧"),
        "ordinary text in any script: " + shown);
    assertEquals(
        "sh\\u202e",
        robot
            .from(v)
            .lookup(".md-code-language")
            .queryAs(javafx.scene.control.Label.class)
            .getText());
  }

  @Test
  void aTableIsAGridWithItsHeaderAndCopiesAsTabSeparatedRows() throws Exception {
    MarkdownView v = show(
        "Prices:\n\n| Item | Price |\n|:-----|------:|\n| Tea | 2.50 |\n| Cake | 3.10 |\n",
        true,
        600);
    GridPane grid = robot.from(v).lookup(".md-table").queryAs(GridPane.class);
    assertEquals(6, grid.getChildren().size(), "two columns, a header row and two rows");
    List<Node> heads = List.copyOf(robot.from(grid).lookup(".md-table-head").queryAll());
    assertFalse(heads.isEmpty());
    assertTrue(robot.from(grid).lookup(".md-bold").queryAll().stream()
        .map(n -> ((Text) n).getText())
        .toList()
        .containsAll(List.of("Item", "Price")));
    TextFlow price = robot.from(grid).lookup(".md-table-cell").queryAllAs(TextFlow.class).stream()
        .filter(f -> f.getChildren().stream()
            .anyMatch(t -> t instanceof Text x && x.getText().equals("2.50")))
        .findFirst()
        .orElseThrow();
    assertEquals(javafx.scene.text.TextAlignment.RIGHT, price.getTextAlignment());
    fx(() -> {
      v.selectAll();
      return null;
    });
    assertEquals("Prices:\nItem\tPrice\nTea\t2.50\nCake\t3.10", v.selectedText());
  }

  @Test
  void nestedAndTaskListsIndentAndCopyWithTheirMarkers() throws Exception {
    MarkdownView v = show(
        "- one\n  - one and a half\n    1. deep\n- two\n\n- [x] done\n- [ ] to do\n", true, 600);
    assertTrue(
        robot.from(v).lookup(".md-list .md-list .md-list").tryQuery().isPresent(),
        "three levels of lists, each inside the one before");
    Bounds outer = robot.from(v).lookup(".md-paragraph").queryAll().stream()
        .filter(n -> text(n).equals("one"))
        .findFirst()
        .orElseThrow()
        .localToScene(new javafx.geometry.BoundingBox(0, 0, 1, 1));
    Bounds inner = robot.from(v).lookup(".md-paragraph").queryAll().stream()
        .filter(n -> text(n).equals("one and a half"))
        .findFirst()
        .orElseThrow()
        .localToScene(new javafx.geometry.BoundingBox(0, 0, 1, 1));
    assertTrue(inner.getMinX() > outer.getMinX() + 8, "the inner list is indented");
    List<String> markers =
        robot
            .from(v)
            .lookup(".md-list-marker")
            .queryAllAs(javafx.scene.control.Label.class)
            .stream()
            .map(javafx.scene.control.Label::getText)
            .toList();
    assertTrue(markers.containsAll(List.of("•", "1.", "☑", "☐")), markers.toString());
    fx(() -> {
      v.selectAll();
      return null;
    });
    assertEquals(
        "- one\n  - one and a half\n    1. deep\n- two\n- [x] done\n- [ ] to do", v.selectedText());
  }

  @Test
  void strikethroughAndInlineCodeAreStyledAndPlainTextIsTakenLiterally() throws Exception {
    MarkdownView v = show("~~old~~ new `x = 1`", true, 600);
    assertTrue(robot.from(v).lookup(".md-strike").queryAll().stream()
        .anyMatch(n -> ((Text) n).getText().equals("old")));
    assertTrue(robot.from(v).lookup(".md-code").queryAll().stream()
        .anyMatch(n -> ((Text) n).getText().equals("x = 1")));
    MarkdownView plain = show("**not bold**\n  two spaces", false, 600);
    assertTrue(robot.from(plain).lookup(".md-bold").tryQuery().isEmpty());
    fx(() -> {
      plain.selectAll();
      return null;
    });
    assertEquals("**not bold**\n  two spaces", plain.selectedText());
  }

  @Test
  void aLongCommandScrollsSidewaysAndItsCopyButtonCopiesTheCode() throws Exception {
    String command = "rsync -av --delete --exclude '.git' " + "/home/me/projects/steward/".repeat(8)
        + " backup:/srv/steward";
    MarkdownView v = show("Run:\n\n```bash\n" + command + "\necho done\n```\n", true, 420);
    ScrollPane scroll = robot.from(v).lookup(".md-code-scroll").queryAs(ScrollPane.class);
    TextFlow code = robot.from(v).lookup(".md-code-flow").queryAs(TextFlow.class);
    assertTrue(
        code.getWidth() > scroll.getViewportBounds().getWidth() + 100,
        "the code keeps its lines: " + code.getWidth() + " in " + scroll.getViewportBounds());
    Text text = (Text) code.getChildren().get(0);
    assertEquals(2, text.getText().lines().count());
    assertTrue(code.getHeight() < text.getFont().getSize() * 4, "two lines high, not wrapped");
    assertEquals(
        "bash",
        robot
            .from(v)
            .lookup(".md-code-language")
            .queryAs(javafx.scene.control.Label.class)
            .getText());
    clearClipboard();
    Button copy = robot.from(v).lookup(".md-code-block .copy-button").queryButton();
    robot.clickOn(copy);
    WaitForAsyncUtils.waitForFxEvents();
    assertEquals(command + "\necho done", clipboard());
    assertEquals("Copied", copy.getText());
    assertTrue(v.selectedText().isEmpty(), "pressing the button selects nothing");
  }

  @Test
  void draggingSelectsTextThatCtrlCCopiesAndDoubleClickTakesAWord() throws Exception {
    MarkdownView v = show("Alpha beta gamma\n\nDelta epsilon", true, 600);
    List<TextFlow> flows = robot.from(v).lookup(".md-paragraph").queryAllAs(TextFlow.class).stream()
        .toList();
    TextFlow first =
        flows.stream().filter(f -> text(f).startsWith("Alpha")).findFirst().orElseThrow();
    TextFlow second =
        flows.stream().filter(f -> text(f).startsWith("Delta")).findFirst().orElseThrow();
    Bounds a = first.localToScreen(first.getLayoutBounds());
    Bounds b = second.localToScreen(second.getLayoutBounds());
    Text beta = (Text) first.getChildren().get(0);
    double wordStart = a.getMinX() + widthOf(beta, "Alpha ") + 1;
    robot.moveTo(new javafx.geometry.Point2D(wordStart, a.getMinY() + a.getHeight() / 2));
    robot.press(MouseButton.PRIMARY);
    robot.moveTo(new javafx.geometry.Point2D(
        b.getMinX() + widthOf(beta, "Delta") + 1, b.getMinY() + b.getHeight() / 2));
    robot.release(MouseButton.PRIMARY);
    WaitForAsyncUtils.waitForFxEvents();
    assertEquals("beta gamma\nDelta", v.selectedText());
    Path highlight = robot.from(v).lookup(".md-selection").queryAs(Path.class);
    assertFalse(highlight.getElements().isEmpty(), "the selection is shown");
    clearClipboard();
    robot.press(KeyCode.CONTROL, KeyCode.C).release(KeyCode.C, KeyCode.CONTROL);
    WaitForAsyncUtils.waitForFxEvents();
    assertEquals("beta gamma\nDelta", clipboard());
    robot.doubleClickOn(new javafx.geometry.Point2D(
        b.getMinX() + widthOf(beta, "Delta eps"), b.getMinY() + b.getHeight() / 2));
    WaitForAsyncUtils.waitForFxEvents();
    assertEquals("epsilon", v.selectedText());
  }

  @Test
  void aCodeBlocksHiddenCharactersAreWrittenOut() throws Exception {
    // Shown raw, the override would show "rm -rf ~/x" reversed after it: not the order it runs.
    MarkdownView v = show("```sh\necho safe \u202e x/~ fr- mr\n```\n", true, 500);
    TextFlow code = robot.from(v).lookup(".md-code-flow").queryAs(TextFlow.class);
    String shown = ((Text) code.getChildren().get(0)).getText();
    assertTrue(shown.contains("\\u202e"), shown);
    assertFalse(shown.contains("\u202e"), shown);
  }

  @Test
  void aDragInsideACodeBlockSelectsCode() throws Exception {
    MarkdownView v = show("```\nsudo apt install ripgrep\n```\n", true, 500);
    TextFlow code = robot.from(v).lookup(".md-code-flow").queryAs(TextFlow.class);
    Text text = (Text) code.getChildren().get(0);
    Bounds c = code.localToScreen(code.getLayoutBounds());
    double y = c.getMinY() + c.getHeight() / 2;
    robot.moveTo(new javafx.geometry.Point2D(c.getMinX() + widthOf(text, "sudo ") + 1, y));
    robot.press(MouseButton.PRIMARY);
    robot.moveTo(
        new javafx.geometry.Point2D(c.getMinX() + widthOf(text, "sudo apt install") + 1, y));
    robot.release(MouseButton.PRIMARY);
    WaitForAsyncUtils.waitForFxEvents();
    assertEquals("apt install", v.selectedText());
  }

  @Test
  void nestedEmphasisKeepsItsStylesAndAnEmptyCellTakesADoubleClick() throws Exception {
    MarkdownView v = show("**bold _both_ bold again**\n\n| a | |\n|---|---|\n| | b |\n", true, 500);
    List<String> bold = robot.from(v).lookup(".md-bold").queryAll().stream()
        .map(n -> ((Text) n).getText())
        .toList();
    assertTrue(bold.contains(" bold again"), "bold after the italic run: " + bold);
    TextFlow empty = robot.from(v).lookup(".md-table-cell").queryAllAs(TextFlow.class).stream()
        .filter(f -> f.getChildren().isEmpty())
        .findFirst()
        .orElseThrow();
    robot.doubleClickOn(empty);
    WaitForAsyncUtils.waitForFxEvents();
    assertEquals("", v.selectedText());
    robot.press(KeyCode.CONTROL, KeyCode.C).release(KeyCode.C, KeyCode.CONTROL);
    WaitForAsyncUtils.waitForFxEvents();
  }

  @Test
  void nestingAsDeepAsAModelCanWriteStillShows() throws Exception {
    String deep =
        ">".repeat(3000) + " the bottom\n\n" + "- a\n".indent(0) + "  ".repeat(40) + "- deep\n";
    MarkdownView v = show(deep, true, 500);
    fx(() -> {
      v.selectAll();
      return null;
    });
    assertTrue(v.selectedText().contains("the bottom"), v.selectedText());
    assertTrue(robot.from(v).lookup(".md-quote").queryAll().size() <= Renderer.MAX_DEPTH);
  }

  @Test
  void aNewSelectionElsewhereClearsTheOldOne() throws Exception {
    MarkdownView[] views = fx(() -> {
      MarkdownView one = new MarkdownView();
      one.setMarkdown("first message");
      MarkdownView two = new MarkdownView();
      two.setMarkdown("second message");
      javafx.scene.layout.VBox root = new javafx.scene.layout.VBox(20, one, two);
      stage.setScene(new Scene(root, 400, 300));
      stage.show();
      return new MarkdownView[] {one, two};
    });
    WaitForAsyncUtils.waitForFxEvents();
    fx(() -> {
      views[0].selectAll();
      views[1].selectAll();
      return null;
    });
    assertEquals("", views[0].selectedText());
    assertEquals("second message", views[1].selectedText());
  }

  private static double widthOf(Text like, String s) throws Exception {
    return fx(() -> {
      Text t = new Text(s);
      t.setFont(like.getFont());
      return t.getLayoutBounds().getWidth();
    });
  }

  private static String text(Node flow) {
    StringBuilder b = new StringBuilder();
    for (Node n : ((TextFlow) flow).getChildren()) if (n instanceof Text t) b.append(t.getText());
    return b.toString();
  }
}
