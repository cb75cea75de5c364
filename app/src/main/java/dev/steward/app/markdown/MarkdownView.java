package dev.steward.app.markdown;

import java.util.List;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.layout.VBox;
import javafx.scene.text.Text;
import javafx.scene.text.TextFlow;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.BlockQuote;
import org.commonmark.node.BulletList;
import org.commonmark.node.Code;
import org.commonmark.node.Emphasis;
import org.commonmark.node.FencedCodeBlock;
import org.commonmark.node.HardLineBreak;
import org.commonmark.node.Heading;
import org.commonmark.node.IndentedCodeBlock;
import org.commonmark.node.Link;
import org.commonmark.node.ListItem;
import org.commonmark.node.OrderedList;
import org.commonmark.node.Paragraph;
import org.commonmark.node.SoftLineBreak;
import org.commonmark.node.StrongEmphasis;
import org.commonmark.node.ThematicBreak;
import org.commonmark.parser.Parser;

/**
 * Renders Markdown (CommonMark) as JavaFX nodes: paragraphs and headings as text flows, lists,
 * code spans and blocks, quotes. Links are shown, never followed: the text comes from a model.
 * HTML in the source is shown as text.
 */
public final class MarkdownView extends VBox {

  private static final Parser PARSER = Parser.builder().build();

  public MarkdownView() {
    getStyleClass().add("markdown");
    setSpacing(6);
  }

  public void setMarkdown(String markdown) {
    getChildren().setAll(render(markdown));
  }

  static List<Node> render(String markdown) {
    VBox root = new VBox();
    new Renderer(root).visitChildrenOf(PARSER.parse(markdown));
    return List.copyOf(root.getChildren());
  }

  private static final class Renderer extends AbstractVisitor {
    private final VBox target;
    private @org.jspecify.annotations.Nullable TextFlow flow;
    private boolean bold;
    private boolean italic;

    Renderer(VBox target) {
      this.target = target;
    }

    void visitChildrenOf(org.commonmark.node.Node node) {
      visitChildren(node);
    }

    private TextFlow newFlow(String styleClass) {
      TextFlow f = new TextFlow();
      f.getStyleClass().add(styleClass);
      target.getChildren().add(f);
      return f;
    }

    private void text(String s, String... extra) {
      if (flow == null) flow = newFlow("md-paragraph");
      Text t = new Text(s);
      t.getStyleClass().add("md-text");
      if (bold) t.getStyleClass().add("md-bold");
      if (italic) t.getStyleClass().add("md-italic");
      t.getStyleClass().addAll(extra);
      flow.getChildren().add(t);
    }

    @Override
    public void visit(Paragraph paragraph) {
      flow = newFlow("md-paragraph");
      visitChildren(paragraph);
      flow = null;
    }

    @Override
    public void visit(Heading heading) {
      flow = newFlow("md-h" + Math.min(heading.getLevel(), 3));
      bold = true;
      visitChildren(heading);
      bold = false;
      flow = null;
    }

    @Override
    public void visit(org.commonmark.node.Text text) {
      text(text.getLiteral());
    }

    @Override
    public void visit(Emphasis emphasis) {
      italic = true;
      visitChildren(emphasis);
      italic = false;
    }

    @Override
    public void visit(StrongEmphasis strong) {
      bold = true;
      visitChildren(strong);
      bold = false;
    }

    @Override
    public void visit(Code code) {
      text(code.getLiteral(), "md-code");
    }

    @Override
    public void visit(Link link) {
      int before = flow == null ? 0 : flow.getChildren().size();
      visitChildren(link);
      if (flow != null) {
        flow.getChildren()
            .subList(before, flow.getChildren().size())
            .forEach(n -> n.getStyleClass().add("md-link"));
      }
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
      codeBlock(block.getLiteral());
    }

    @Override
    public void visit(IndentedCodeBlock block) {
      codeBlock(block.getLiteral());
    }

    private void codeBlock(String literal) {
      Label code =
          new Label(literal.endsWith("\n") ? literal.substring(0, literal.length() - 1) : literal);
      code.getStyleClass().add("md-code-block");
      code.setWrapText(true);
      code.setMaxWidth(Double.MAX_VALUE);
      target.getChildren().add(code);
      flow = null;
    }

    @Override
    public void visit(BulletList list) {
      items(list, false, 1);
    }

    @Override
    public void visit(OrderedList list) {
      items(list, true, list.getMarkerStartNumber() == null ? 1 : list.getMarkerStartNumber());
    }

    private void items(org.commonmark.node.Node list, boolean ordered, int start) {
      int n = start;
      for (org.commonmark.node.Node item = list.getFirstChild();
          item != null;
          item = item.getNext()) {
        if (!(item instanceof ListItem)) continue;
        flow = newFlow("md-list-item");
        text(ordered ? (n++) + ". " : "• ");
        for (org.commonmark.node.Node child = item.getFirstChild();
            child != null;
            child = child.getNext()) {
          if (child instanceof Paragraph) {
            visitChildren(child);
          } else {
            child.accept(this);
          }
        }
        flow = null;
      }
    }

    @Override
    public void visit(BlockQuote quote) {
      flow = newFlow("md-quote");
      for (org.commonmark.node.Node child = quote.getFirstChild();
          child != null;
          child = child.getNext()) visitChildren(child);
      flow = null;
    }

    @Override
    public void visit(ThematicBreak br) {
      newFlow("md-rule");
      flow = null;
    }

    @Override
    public void visit(org.commonmark.node.HtmlInline html) {
      text(html.getLiteral());
    }

    @Override
    public void visit(org.commonmark.node.HtmlBlock html) {
      flow = newFlow("md-paragraph");
      text(html.getLiteral());
      flow = null;
    }
  }
}
