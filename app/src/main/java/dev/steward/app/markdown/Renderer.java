package dev.steward.app.markdown;

import dev.steward.protocol.util.ShownText;
import java.util.List;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.Separator;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.scene.text.Text;
import javafx.scene.text.TextFlow;
import org.commonmark.ext.gfm.strikethrough.Strikethrough;
import org.commonmark.ext.gfm.tables.TableBlock;
import org.commonmark.ext.gfm.tables.TableCell;
import org.commonmark.ext.gfm.tables.TableRow;
import org.commonmark.ext.task.list.items.TaskListItemMarker;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.BlockQuote;
import org.commonmark.node.BulletList;
import org.commonmark.node.Code;
import org.commonmark.node.CustomBlock;
import org.commonmark.node.CustomNode;
import org.commonmark.node.Emphasis;
import org.commonmark.node.FencedCodeBlock;
import org.commonmark.node.HardLineBreak;
import org.commonmark.node.Heading;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.HtmlInline;
import org.commonmark.node.IndentedCodeBlock;
import org.commonmark.node.Link;
import org.commonmark.node.ListItem;
import org.commonmark.node.OrderedList;
import org.commonmark.node.Paragraph;
import org.commonmark.node.SoftLineBreak;
import org.commonmark.node.StrongEmphasis;
import org.commonmark.node.ThematicBreak;
import org.jspecify.annotations.Nullable;

/**
 * Turns a CommonMark tree into nodes inside one container, noting each run of text as a {@link
 * Block} for selection and copying. Lists and quotes nest: their items are rendered by a renderer
 * of their own into an indented box.
 */
final class Renderer extends AbstractVisitor {

  /** Table cells wider than this wrap, so one long cell does not make the table a ribbon. */
  private static final double CELL_WIDTH = 320;

  private final VBox target;
  private final List<Block> blocks;
  private final String indent;
  private String prefix;
  private @Nullable TextFlow flow;
  private boolean bold;
  private boolean italic;
  private boolean strike;
  private boolean link;

  /**
   * Lists and quotes nested deeper than this are shown flat: a model could write thousands of
   * levels, and each would be a box in the scene graph and a frame on the stack.
   */
  static final int MAX_DEPTH = 16;

  private final int depth;

  /** {@code indent}: how deep in lists, for the copied markers of the lists inside. */
  Renderer(VBox target, List<Block> blocks, String prefix, String indent, int depth) {
    this.target = target;
    this.blocks = blocks;
    this.prefix = prefix;
    this.indent = indent;
    this.depth = depth;
  }

  void render(org.commonmark.node.Node root) {
    visitChildren(root);
  }

  private TextFlow block(String styleClass) {
    TextFlow f = new TextFlow();
    f.getStyleClass().add(styleClass);
    target.getChildren().add(f);
    blocks.add(new Block(f, "\n", prefix));
    prefix = "";
    return f;
  }

  private void text(String s, String... extra) {
    if (flow == null) flow = block("md-paragraph");
    Text t = new Text(s);
    t.getStyleClass().add("md-text");
    if (bold) t.getStyleClass().add("md-bold");
    if (italic) t.getStyleClass().add("md-italic");
    if (strike) t.getStyleClass().add("md-strike");
    if (link) t.getStyleClass().add("md-link");
    t.getStyleClass().addAll(extra);
    flow.getChildren().add(t);
  }

  private void inBlock(String styleClass, org.commonmark.node.Node node) {
    flow = block(styleClass);
    visitChildren(node);
    flow = null;
  }

  @Override
  public void visit(Paragraph paragraph) {
    inBlock("md-paragraph", paragraph);
  }

  @Override
  public void visit(Heading heading) {
    boolean was = bold;
    bold = true;
    inBlock("md-h" + Math.min(heading.getLevel(), 3), heading);
    bold = was;
  }

  @Override
  public void visit(org.commonmark.node.Text text) {
    text(ProseText.shown(text.getLiteral()));
  }

  @Override
  public void visit(Emphasis emphasis) {
    boolean was = italic;
    italic = true;
    visitChildren(emphasis);
    italic = was;
  }

  @Override
  public void visit(StrongEmphasis strong) {
    boolean was = bold;
    bold = true;
    visitChildren(strong);
    bold = was;
  }

  @Override
  public void visit(Code code) {
    // As a code block shows code: a span may be a command or a name the user copies.
    text(ShownText.escaped(code.getLiteral()), "md-code");
  }

  /** Shown, never followed: the text comes from a model. */
  @Override
  public void visit(Link l) {
    boolean was = link;
    link = true;
    visitChildren(l);
    link = was;
  }

  @Override
  public void visit(SoftLineBreak br) {
    text(" ");
  }

  @Override
  public void visit(HardLineBreak br) {
    text("\n");
  }

  @Override
  public void visit(FencedCodeBlock block) {
    String info = block.getInfo() == null ? "" : block.getInfo().strip();
    int space = info.indexOf(' ');
    codeBlock(block.getLiteral(), space < 0 ? info : info.substring(0, space));
  }

  @Override
  public void visit(IndentedCodeBlock block) {
    codeBlock(block.getLiteral(), "");
  }

  private void codeBlock(String literal, String language) {
    String code = literal.endsWith("\n") ? literal.substring(0, literal.length() - 1) : literal;
    CodeBlockView view = new CodeBlockView(code, language);
    target.getChildren().add(view);
    blocks.add(new Block(view.flow(), "\n", prefix));
    prefix = "";
    flow = null;
  }

  @Override
  public void visit(BulletList list) {
    items(list, false, 1);
  }

  @Override
  public void visit(OrderedList list) {
    Integer start = list.getMarkerStartNumber();
    items(list, true, start == null ? 1 : start);
  }

  private void items(org.commonmark.node.Node list, boolean ordered, int start) {
    if (depth >= MAX_DEPTH) {
      visitChildren(list);
      return;
    }
    VBox box = new VBox(2);
    box.getStyleClass().add("md-list");
    target.getChildren().add(box);
    int n = start;
    for (org.commonmark.node.Node item = list.getFirstChild();
        item != null;
        item = item.getNext()) {
      if (!(item instanceof ListItem)) continue;
      String marker = ordered ? (n++) + "." : "•";
      String copied = indent + (ordered ? marker + " " : "- ");
      if (item.getFirstChild() instanceof TaskListItemMarker task) {
        marker = task.isChecked() ? "☑" : "☐";
        copied += task.isChecked() ? "[x] " : "[ ] ";
      }
      Label mark = new Label(marker);
      mark.getStyleClass().add("md-list-marker");
      mark.setMinWidth(Region.USE_PREF_SIZE);
      VBox body = new VBox(4);
      HBox.setHgrow(body, Priority.ALWAYS);
      HBox row = new HBox(6, mark, body);
      row.getStyleClass().add("md-list-item");
      box.getChildren().add(row);
      new Renderer(body, blocks, copied, indent + "  ", depth + 1).render(item);
    }
    flow = null;
  }

  @Override
  public void visit(BlockQuote quote) {
    if (depth >= MAX_DEPTH) {
      visitChildren(quote);
      return;
    }
    VBox box = new VBox(4);
    box.getStyleClass().add("md-quote");
    target.getChildren().add(box);
    new Renderer(box, blocks, prefix, indent, depth + 1).render(quote);
    prefix = "";
    flow = null;
  }

  @Override
  public void visit(ThematicBreak br) {
    Separator rule = new Separator();
    rule.getStyleClass().add("md-rule");
    target.getChildren().add(rule);
    flow = null;
  }

  @Override
  public void visit(HtmlInline html) {
    text(ProseText.shown(html.getLiteral()));
  }

  @Override
  public void visit(HtmlBlock html) {
    flow = block("md-paragraph");
    text(ProseText.shown(html.getLiteral().strip()));
    flow = null;
  }

  @Override
  public void visit(CustomNode node) {
    if (node instanceof Strikethrough) {
      boolean was = strike;
      strike = true;
      visitChildren(node);
      strike = was;
    } else if (!(node instanceof TaskListItemMarker)) {
      visitChildren(node);
    }
  }

  @Override
  public void visit(CustomBlock node) {
    if (node instanceof TableBlock table) {
      table(table);
    } else {
      visitChildren(node);
    }
  }

  private void table(TableBlock table) {
    GridPane grid = new GridPane();
    grid.getStyleClass().add("md-table");
    int row = 0;
    for (org.commonmark.node.Node part = table.getFirstChild();
        part != null;
        part = part.getNext()) {
      for (org.commonmark.node.Node r = part.getFirstChild(); r != null; r = r.getNext()) {
        if (!(r instanceof TableRow)) continue;
        int column = 0;
        for (org.commonmark.node.Node c = r.getFirstChild(); c != null; c = c.getNext()) {
          if (!(c instanceof TableCell cell)) continue;
          grid.add(cell(cell, column == 0 ? "\n" : "\t", row), column++, row);
        }
        row++;
      }
    }
    ScrollPane scroll = new ScrollPane(grid);
    scroll.getStyleClass().add("md-table-scroll");
    scroll.setVbarPolicy(ScrollPane.ScrollBarPolicy.NEVER);
    scroll.setHbarPolicy(ScrollPane.ScrollBarPolicy.AS_NEEDED);
    grid.heightProperty()
        .addListener((o, was, now) -> scroll.setPrefViewportHeight(now.doubleValue()));
    target.getChildren().add(scroll);
    flow = null;
  }

  private Node cell(TableCell cell, String before, int row) {
    TextFlow f = new TextFlow();
    f.getStyleClass().add("md-table-cell");
    if (cell.isHeader()) f.getStyleClass().add("md-table-head");
    f.setMaxWidth(CELL_WIDTH);
    f.setPrefWidth(Region.USE_COMPUTED_SIZE);
    if (cell.getAlignment() == TableCell.Alignment.RIGHT)
      f.setTextAlignment(javafx.scene.text.TextAlignment.RIGHT);
    else if (cell.getAlignment() == TableCell.Alignment.CENTER)
      f.setTextAlignment(javafx.scene.text.TextAlignment.CENTER);
    blocks.add(new Block(f, before, prefix));
    prefix = "";
    flow = f;
    boolean wasBold = bold;
    bold = cell.isHeader();
    visitChildren(cell);
    bold = wasBold;
    flow = null;
    // The padding goes around the flow, not in it (see CodeBlockView).
    javafx.scene.layout.StackPane box = new javafx.scene.layout.StackPane(f);
    box.getStyleClass().add("md-cell");
    if (cell.isHeader()) box.getStyleClass().add("md-cell-head");
    else if (row % 2 == 0) box.getStyleClass().add("md-cell-even");
    box.setAlignment(javafx.geometry.Pos.TOP_LEFT);
    return box;
  }
}
