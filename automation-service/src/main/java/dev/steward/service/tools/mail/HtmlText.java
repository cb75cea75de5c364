package dev.steward.service.tools.mail;

import java.util.Set;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jsoup.select.NodeTraversor;
import org.jsoup.select.NodeVisitor;

/**
 * The readable text of an HTML mail part: blocks on lines of their own, no scripts or styles. The
 * HTML is cut at {@value #MAX_CHARS} characters before jsoup builds its tree, and the walk is linear
 * in the nodes however deeply a stranger nests them.
 */
final class HtmlText {

  private static final Set<String> BLOCKS = Set.of(
      "p",
      "div",
      "br",
      "li",
      "tr",
      "h1",
      "h2",
      "h3",
      "h4",
      "h5",
      "h6",
      "blockquote",
      "pre",
      "table",
      "ul",
      "ol",
      "hr",
      "section",
      "article",
      "header",
      "footer");
  private static final Set<String> HIDDEN = Set.of("script", "style", "head", "title", "template");

  static final int MAX_CHARS = MimeReader.MAX_HTML;

  private HtmlText() {}

  static String of(String html) {
    Element body = Jsoup.parse(html.length() <= MAX_CHARS ? html : html.substring(0, MAX_CHARS))
        .body();
    StringBuilder out = new StringBuilder();
    NodeTraversor.traverse(
        new NodeVisitor() {
          /** How many hidden elements (scripts, styles) the walk is inside. */
          private int hidden;

          @Override
          public void head(Node node, int depth) {
            if (node instanceof Element e && HIDDEN.contains(e.normalName())) hidden++;
            if (node instanceof TextNode t && hidden == 0) {
              String s = t.text();
              if (!s.isBlank()) {
                if (out.length() > 0 && !endsWithSpace(out) && s.startsWith(" ")) out.append(' ');
                out.append(s.strip());
                if (s.endsWith(" ")) out.append(' ');
              }
            } else if (node instanceof Element e && BLOCKS.contains(e.normalName())) {
              newline(out);
            }
          }

          @Override
          public void tail(Node node, int depth) {
            if (node instanceof Element e && HIDDEN.contains(e.normalName())) hidden--;
            if (node instanceof Element e && BLOCKS.contains(e.normalName())) newline(out);
          }
        },
        body);
    return out.toString()
        .replaceAll("[ \\t]+\\n", "\n")
        .replaceAll("\\n{3,}", "\n\n")
        .strip();
  }

  private static boolean endsWithSpace(StringBuilder b) {
    char c = b.charAt(b.length() - 1);
    return c == ' ' || c == '\n';
  }

  private static void newline(StringBuilder b) {
    if (b.length() > 0 && b.charAt(b.length() - 1) != '\n') b.append('\n');
  }
}
