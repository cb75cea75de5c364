package dev.steward.service.tools.browser;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether a loaded page might send itself elsewhere without a click — a script, an event handler,
 * a refresh, a frame, a plugin, a template (a declarative shadow root may hold a script) — judged
 * from its response alone, so that asking never waits on the page's own thread (a page whose
 * script spins answers no query). Only a page that plainly has none of these is judged unable;
 * anything unsure may: another type than HTML, a body whose size is not declared or that comes
 * compressed (a small body may unpack to hundreds of megabytes), an encoding that hides letters.
 * Every search is linear in the body's size, so that a page cannot hold the browser's one thread.
 */
final class SelfNavigation {

  /** Past this, the body is not read for the question: the visit waits its moment instead. */
  static final int MAX_BODY_BYTES = 512 * 1024;

  /** A start tag's name as HTML's tokenizer reads it: a letter after "<", up to a space, / or >. */
  private static final Pattern TAG = Pattern.compile("<([a-zA-Z][^\\s/>]*+)");

  private static final Set<String> MOVING_TAGS =
      Set.of("script", "object", "embed", "template", "portal", "applet");

  /**
   * An event handler: an attribute named on… given a value. An attribute's name starts only after
   * a space, a / or a quoted value's closing quote; starting there, each try reads its own letters.
   */
  private static final Pattern HANDLER =
      Pattern.compile("(?<=[\\s/\"'])on[a-z]++\\s*+=", Pattern.CASE_INSENSITIVE);

  private static final Pattern EQUIV = Pattern.compile("http-equiv", Pattern.CASE_INSENSITIVE);

  private SelfNavigation() {}

  /**
   * @param headers the response's headers, names in lower case
   * @param body reads the response's body; read only when the headers leave the question open
   */
  static boolean possible(Map<String, String> headers, Supplier<byte[]> body) {
    if (headers.containsKey("refresh")) return true;
    if (!isHtml(headers.getOrDefault("content-type", ""))) return true;
    String encoding = headers.getOrDefault("content-encoding", "identity").trim();
    if (!encoding.equalsIgnoreCase("identity")) return true;
    if (declaredLength(headers) > MAX_BODY_BYTES) return true;
    return possible(body.get());
  }

  /** Exactly one media type, HTML: a list of them may be read as the last, XHTML's for one. */
  private static boolean isHtml(String contentType) {
    if (contentType.indexOf(',') >= 0) return false;
    int semicolon = contentType.indexOf(';');
    String type = semicolon < 0 ? contentType : contentType.substring(0, semicolon);
    return type.trim().equalsIgnoreCase("text/html");
  }

  /** The declared size; none, or one that is not a number, counts as too big. */
  private static long declaredLength(Map<String, String> headers) {
    try {
      return Long.parseLong(headers.getOrDefault("content-length", "").trim());
    } catch (NumberFormatException e) {
      return Long.MAX_VALUE;
    }
  }

  private static boolean possible(byte[] body) {
    if (body.length > MAX_BODY_BYTES) return true;
    // NUL: UTF-16 or 32, whose tags are not these bytes. ESC: ISO-2022-JP, where an escape that
    // names the mode already in force reads as nothing, splitting a word the browser sees whole.
    for (byte b : body) if (b == 0 || b == 0x1B) return true;
    // Every other encoding a browser reads HTML in keeps ASCII's bytes for ASCII's letters, and
    // none makes ASCII that is not in the bytes.
    String text = new String(body, StandardCharsets.ISO_8859_1);
    Matcher tags = TAG.matcher(text);
    while (tags.find()) {
      String name = tags.group(1).toLowerCase(Locale.ROOT);
      if (MOVING_TAGS.contains(name) || name.contains("frame")) return true;
    }
    return HANDLER.matcher(text).find() || EQUIV.matcher(text).find();
  }
}
