package dev.steward.service.tools.browser;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Whether a loaded page might send itself elsewhere without a click — a script, an event handler,
 * a refresh, a frame, a plugin, a template (a declarative shadow root may hold a script) — judged
 * from its response alone, so that asking never waits on the page's own thread (a page whose
 * script spins answers no query). Only a page that plainly has none of these is judged unable;
 * anything unsure (another type than HTML, an encoding that is not ASCII-based, a big body) may.
 */
final class SelfNavigation {

  /** Past this, the body is not read for the question: the visit waits its moment instead. */
  static final int MAX_BODY_BYTES = 512 * 1024;

  /**
   * Tags and attributes that may navigate, found anywhere in the text, case-insensitively: a
   * comment or a word in the text that looks like one costs only the wait. An event handler is any
   * {@code on…=}, whatever stands before it (HTML needs no space between attributes).
   */
  private static final Pattern MAY_NAVIGATE = Pattern.compile(
      "<\\s*(script|[a-z-]*frame|object|embed|template|portal|applet)\\b|http-equiv|on[a-z]+\\s*=",
      Pattern.CASE_INSENSITIVE);

  private SelfNavigation() {}

  /**
   * @param headers the response's headers, names in lower case
   * @param body reads the response's body; read only when the headers leave the question open
   */
  static boolean possible(Map<String, String> headers, Supplier<byte[]> body) {
    if (headers.containsKey("refresh")) return true;
    String type = headers.getOrDefault("content-type", "").toLowerCase(Locale.ROOT);
    if (!type.startsWith("text/html")) return true;
    if (declaredLength(headers) > MAX_BODY_BYTES) return true;
    return possible(body.get());
  }

  private static long declaredLength(Map<String, String> headers) {
    try {
      return Long.parseLong(headers.getOrDefault("content-length", "0").trim());
    } catch (NumberFormatException e) {
      return Long.MAX_VALUE;
    }
  }

  private static boolean possible(byte[] body) {
    if (body.length > MAX_BODY_BYTES) return true;
    for (byte b : body) if (b == 0) return true; // UTF-16 or 32: its tags are not these bytes
    // Every encoding a browser reads HTML in, but UTF-16, keeps ASCII's bytes for ASCII's letters.
    return MAY_NAVIGATE.matcher(new String(body, StandardCharsets.ISO_8859_1)).find();
  }
}
