package dev.steward.service.tools.web;

import java.util.Set;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jsoup.select.NodeTraversor;
import org.jsoup.select.NodeVisitor;

/**
 * An HTML page as a person reads it: the text of its body in reading order, a line break at
 * every block, nothing of scripts, styles, templates or hidden elements (text hidden from the
 * reader is where instructions to a model hide).
 */
final class PageText {

  private static final Set<String> DROPPED = Set.of(
      "script",
      "style",
      "noscript",
      "template",
      "svg",
      "canvas",
      "iframe",
      "object",
      "embed",
      "head");
  private static final Set<String> BLOCKS = Set.of(
      "p",
      "div",
      "br",
      "li",
      "ul",
      "ol",
      "h1",
      "h2",
      "h3",
      "h4",
      "h5",
      "h6",
      "tr",
      "table",
      "section",
      "article",
      "header",
      "footer",
      "nav",
      "aside",
      "main",
      "blockquote",
      "pre",
      "hr",
      "dt",
      "dd",
      "dl",
      "figure",
      "figcaption",
      "form",
      "fieldset",
      "address",
      "details",
      "summary");

  private PageText() {}

  static String of(Document doc) {
    doc.select(String.join(",", DROPPED)).remove();
    doc.select("[hidden], [aria-hidden=true], [style~=(?i)display\\s*:\\s*none],"
            + " [style~=(?i)visibility\\s*:\\s*hidden]")
        .remove();
    StringBuilder out = new StringBuilder();
    Element body = doc.body();
    NodeTraversor.traverse(
        new NodeVisitor() {
          @Override
          public void head(Node node, int depth) {
            if (node instanceof TextNode t) {
              // Spaces as the page has them ("the <b>sheets</b>." stays "the sheets."), one at
              // a time, none at the start of a line.
              for (char c : t.text().toCharArray()) {
                boolean space = c == ' ';
                int n = out.length();
                if (space && (n == 0 || out.charAt(n - 1) == ' ' || out.charAt(n - 1) == '\n')) {
                  continue;
                }
                out.append(c);
              }
            } else if (node instanceof Element e && BLOCKS.contains(e.normalName())) {
              newline(out);
            }
          }

          @Override
          public void tail(Node node, int depth) {
            if (node instanceof Element e && BLOCKS.contains(e.normalName())) newline(out);
          }
        },
        body);
    return out.toString().strip();
  }

  private static void newline(StringBuilder out) {
    int n = out.length();
    if (n == 0) return;
    if (out.charAt(n - 1) == ' ') out.setLength(--n);
    if (n > 0 && out.charAt(n - 1) != '\n') out.append('\n');
  }
}
