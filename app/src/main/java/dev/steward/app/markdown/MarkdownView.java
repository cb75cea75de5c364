package dev.steward.app.markdown;

import java.lang.ref.WeakReference;
import java.text.BreakIterator;
import java.util.ArrayList;
import java.util.List;
import javafx.geometry.Bounds;
import javafx.geometry.Point2D;
import javafx.scene.Cursor;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.ButtonBase;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.MenuItem;
import javafx.scene.control.ScrollBar;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.input.MouseButton;
import javafx.scene.input.MouseEvent;
import javafx.scene.layout.VBox;
import javafx.scene.shape.ClosePath;
import javafx.scene.shape.LineTo;
import javafx.scene.shape.MoveTo;
import javafx.scene.shape.Path;
import javafx.scene.shape.PathElement;
import javafx.scene.text.Text;
import javafx.scene.text.TextFlow;
import org.commonmark.ext.gfm.strikethrough.StrikethroughExtension;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.ext.task.list.items.TaskListItemsExtension;
import org.commonmark.parser.Parser;
import org.jspecify.annotations.Nullable;

/**
 * A message as the reader sees it: Markdown (CommonMark with GitHub's tables, strikethrough and
 * task lists) or plain text, rendered as JavaFX nodes whose text can be selected with the mouse
 * (drag; double-click a word, triple-click a paragraph) and copied (Ctrl+C, or the context menu).
 * Links are shown, never followed: the text comes from a model. HTML in the source is shown as
 * text.
 */
public final class MarkdownView extends VBox {

  private static final Parser PARSER = Parser.builder()
      .extensions(List.of(
          TablesExtension.create(),
          StrikethroughExtension.create(),
          TaskListItemsExtension.create()))
      .build();

  /** One selection at a time in the window, as in a browser. */
  private static WeakReference<@Nullable MarkdownView> selecting = new WeakReference<>(null);

  /** A place between two characters: in block {@code block}, before character {@code index}. */
  record Position(int block, int index) implements Comparable<Position> {
    @Override
    public int compareTo(Position o) {
      return block != o.block ? Integer.compare(block, o.block) : Integer.compare(index, o.index);
    }
  }

  private final Path highlight = new Path();
  private final ContextMenu menu = new ContextMenu();
  private List<Block> blocks = List.of();
  private String source = "";
  private @Nullable Position anchor;
  private @Nullable Position focus;
  private boolean redrawQueued;

  public MarkdownView() {
    getStyleClass().add("markdown");
    setSpacing(6);
    highlight.getStyleClass().add("md-selection");
    highlight.setManaged(false);
    highlight.setMouseTransparent(true);
    // Filters: the scroll panes of code blocks and tables take the drags that start in them.
    addEventFilter(MouseEvent.MOUSE_PRESSED, this::pressed);
    addEventFilter(MouseEvent.MOUSE_DRAGGED, this::dragged);
    addEventHandler(KeyEvent.KEY_PRESSED, this::keyPressed);
    MenuItem copy = new MenuItem("Copy");
    copy.setOnAction(e -> copySelection());
    MenuItem all = new MenuItem("Select all");
    all.setOnAction(e -> selectAll());
    MenuItem message = new MenuItem("Copy message");
    message.setOnAction(e -> Clip.put(source));
    menu.getItems().addAll(copy, all, message);
    menu.setOnShowing(e -> copy.setDisable(selectedText().isEmpty()));
    setOnContextMenuRequested(e -> {
      menu.show(this, e.getScreenX(), e.getScreenY());
      e.consume();
    });
  }

  /** Shows Markdown. */
  public void setMarkdown(String markdown) {
    source = markdown;
    List<Block> found = new ArrayList<>();
    VBox root = new VBox();
    try {
      new Renderer(root, found, "", "", 0).render(PARSER.parse(markdown));
    } catch (StackOverflowError e) {
      // Nesting too deep even for the flat rendering of Renderer.MAX_DEPTH: shown as written.
      setPlainText(markdown);
      return;
    }
    show(List.copyOf(root.getChildren()), found);
  }

  /**
   * Shows text as it is, line breaks kept, nothing interpreted — but what could reorder or hide it
   * written out ({@link ProseText}).
   */
  public void setPlainText(String text) {
    source = text;
    Text t = new Text(ProseText.shown(text));
    t.getStyleClass().add("md-text");
    TextFlow flow = new TextFlow(t);
    flow.getStyleClass().add("md-paragraph");
    show(List.of(flow), List.of(new Block(flow, "", "")));
  }

  private void show(List<Node> nodes, List<Block> found) {
    anchor = null;
    focus = null;
    highlight.getElements().clear();
    blocks = found;
    for (Block b : found) b.flow().setCursor(Cursor.TEXT);
    getChildren().setAll(nodes);
    getChildren().add(highlight);
  }

  /** What was given to show: the Markdown source, or the plain text. */
  public String source() {
    return source;
  }

  /** The selected text as it reads (list markers and table tabs kept), or "" if none. */
  public String selectedText() {
    Position a = anchor;
    Position f = focus;
    if (a == null || f == null || a.equals(f)) return "";
    Position start = a.compareTo(f) <= 0 ? a : f;
    Position end = a.compareTo(f) <= 0 ? f : a;
    StringBuilder out = new StringBuilder();
    for (int i = start.block(); i <= end.block(); i++) {
      Block b = blocks.get(i);
      String text = b.text();
      int from = i == start.block() ? Math.min(start.index(), text.length()) : 0;
      int to = i == end.block() ? Math.min(end.index(), text.length()) : text.length();
      if (i != start.block()) out.append(b.before());
      if (from == 0) out.append(b.prefix());
      if (from < to) out.append(text, from, to);
    }
    return out.toString().replace("\uFFFC", "");
  }

  public void selectAll() {
    if (blocks.isEmpty()) return;
    select(
        new Position(0, 0),
        new Position(blocks.size() - 1, blocks.get(blocks.size() - 1).text().length()));
  }

  public void clearSelection() {
    anchor = null;
    focus = null;
    highlight.getElements().clear();
  }

  public void copySelection() {
    String text = selectedText();
    if (!text.isEmpty()) Clip.put(text);
  }

  private void select(Position from, Position to) {
    MarkdownView other = selecting.get();
    if (other != null && other != this) other.clearSelection();
    selecting = new WeakReference<>(this);
    anchor = from;
    focus = to;
    drawHighlight();
  }

  private void pressed(MouseEvent e) {
    if (e.getButton() != MouseButton.PRIMARY || onControl(e)) return;
    requestFocus();
    Position p = positionAt(e.getSceneX(), e.getSceneY(), false);
    if (p == null) return;
    String text = blocks.get(p.block()).text();
    if (e.getClickCount() == 2) {
      Position on = positionAt(e.getSceneX(), e.getSceneY(), true);
      select(word(p.block(), text, on == null ? p.index() : on.index()));
    } else if (e.getClickCount() >= 3) {
      select(new Position(p.block(), 0), new Position(p.block(), text.length()));
    } else if (e.isShiftDown() && anchor != null) {
      select(anchor, p);
    } else {
      select(p, p);
    }
  }

  /** The word (or the run of spaces, or the mark) holding character {@code at}. */
  private static Position[] word(int block, String text, int at) {
    if (text.isEmpty()) return new Position[] {new Position(block, 0), new Position(block, 0)};
    BreakIterator words = BreakIterator.getWordInstance();
    words.setText(text);
    int end = words.following(Math.max(0, Math.min(at, text.length() - 1)));
    int start = words.previous();
    if (end == BreakIterator.DONE) end = text.length();
    if (start == BreakIterator.DONE) start = 0;
    return new Position[] {new Position(block, start), new Position(block, end)};
  }

  private void select(Position[] range) {
    select(range[0], range[1]);
  }

  private void dragged(MouseEvent e) {
    Position a = anchor;
    if (a == null || e.getButton() != MouseButton.PRIMARY || onControl(e)) return;
    Position p = positionAt(e.getSceneX(), e.getSceneY(), false);
    if (p != null) select(a, p);
    e.consume();
  }

  private void keyPressed(KeyEvent e) {
    if (!e.isShortcutDown()) return;
    if (e.getCode() == KeyCode.C && !selectedText().isEmpty()) {
      copySelection();
      e.consume();
    } else if (e.getCode() == KeyCode.A) {
      selectAll();
      e.consume();
    }
  }

  /** A press on a button or a scroll bar inside (a code block's Copy) is theirs, not a selection. */
  private boolean onControl(MouseEvent e) {
    for (Object t = e.getTarget(); t instanceof Node n && n != this; t = n.getParent()) {
      if (n instanceof ButtonBase || n instanceof ScrollBar) return true;
    }
    return false;
  }

  /**
   * The place nearest a point of the scene: in the block under it, or else the nearest block
   * (above it: its start; below it: its end). {@code onCharacter}: the character under the point
   * rather than the gap nearest it (a double-click takes the word clicked on, not the next one).
   */
  @Nullable
  Position positionAt(double sceneX, double sceneY, boolean onCharacter) {
    int best = -1;
    double bestDy = Double.MAX_VALUE;
    double bestDx = Double.MAX_VALUE;
    for (int i = 0; i < blocks.size(); i++) {
      Bounds b = blocks.get(i).flow().localToScene(blocks.get(i).flow().getLayoutBounds());
      double dy = distance(sceneY, b.getMinY(), b.getMaxY());
      double dx = distance(sceneX, b.getMinX(), b.getMaxX());
      if (dy < bestDy || (dy == bestDy && dx < bestDx)) {
        best = i;
        bestDy = dy;
        bestDx = dx;
      }
    }
    if (best < 0) return null;
    TextFlow flow = blocks.get(best).flow();
    Bounds b = flow.localToScene(flow.getLayoutBounds());
    if (sceneY < b.getMinY()) return new Position(best, 0);
    if (sceneY > b.getMaxY()) return new Position(best, blocks.get(best).text().length());
    double x = Math.max(b.getMinX(), Math.min(sceneX, b.getMaxX() - 0.5));
    Point2D local = flow.sceneToLocal(x, sceneY);
    javafx.scene.text.HitInfo hit = flow.hitTest(local);
    int index = onCharacter ? hit.getCharIndex() : hit.getInsertionIndex();
    return new Position(
        best, Math.max(0, Math.min(index, blocks.get(best).text().length())));
  }

  private static double distance(double v, double min, double max) {
    return v < min ? min - v : v > max ? v - max : 0;
  }

  @Override
  protected void layoutChildren() {
    super.layoutChildren();
    // The blocks inside lists and tables are placed after this; redraw once all are.
    Scene scene = getScene();
    if (anchor == null || redrawQueued || scene == null) return;
    redrawQueued = true;
    scene.addPostLayoutPulseListener(new Runnable() {
      @Override
      public void run() {
        scene.removePostLayoutPulseListener(this);
        redrawQueued = false;
        drawHighlight();
      }
    });
  }

  private void drawHighlight() {
    Position a = anchor;
    Position f = focus;
    List<PathElement> out = new ArrayList<>();
    if (a != null && f != null && !a.equals(f)) {
      Position start = a.compareTo(f) <= 0 ? a : f;
      Position end = a.compareTo(f) <= 0 ? f : a;
      for (int i = start.block(); i <= end.block(); i++) {
        TextFlow flow = blocks.get(i).flow();
        int length = blocks.get(i).text().length();
        int from = i == start.block() ? start.index() : 0;
        int to = i == end.block() ? end.index() : length;
        if (from >= to) continue;
        Point2D origin = sceneToLocal(flow.localToScene(0, 0));
        for (PathElement e : flow.rangeShape(from, to)) out.add(moved(e, origin));
      }
    }
    highlight.getElements().setAll(out);
  }

  private static PathElement moved(PathElement e, Point2D by) {
    if (e instanceof MoveTo m) return new MoveTo(m.getX() + by.getX(), m.getY() + by.getY());
    if (e instanceof LineTo l) return new LineTo(l.getX() + by.getX(), l.getY() + by.getY());
    return e instanceof ClosePath ? new ClosePath() : e;
  }
}
