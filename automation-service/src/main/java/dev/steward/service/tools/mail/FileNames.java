package dev.steward.service.tools.mail;

import java.text.Normalizer;

/**
 * A sender's attachment name made into a file name that stays in its folder on every system: no
 * separators, no leading dot, no control or reserved characters, no device names, bounded length.
 */
final class FileNames {

  private static final int MAX = 100;

  private FileNames() {}

  static String safe(String name) {
    String n = Normalizer.normalize(name, Normalizer.Form.NFC);
    int slash = Math.max(n.lastIndexOf('/'), n.lastIndexOf('\\'));
    n = n.substring(slash + 1);
    StringBuilder b = new StringBuilder();
    n.codePoints().forEach(c -> {
      boolean ok = Character.isLetterOrDigit(c)
          || c == '.'
          || c == '-'
          || c == '_'
          || c == ' '
          || c == '('
          || c == ')'
          || c == '+'
          || c == ',';
      b.appendCodePoint(ok ? c : '_');
    });
    String s = b.toString().strip().replaceAll("\\.{2,}", ".");
    while (s.startsWith(".") || s.startsWith("-")) s = s.substring(1);
    while (s.endsWith(".") || s.endsWith(" ")) s = s.substring(0, s.length() - 1);
    if (s.length() > MAX) {
      int dot = s.lastIndexOf('.');
      String ext = dot > 0 && s.length() - dot <= 10 ? s.substring(dot) : "";
      s = s.substring(0, MAX - ext.length()) + ext;
    }
    String stem = s.contains(".") ? s.substring(0, s.indexOf('.')) : s;
    if (s.isEmpty()
        || stem.toUpperCase(java.util.Locale.ROOT).matches("CON|PRN|AUX|NUL|COM[0-9]|LPT[0-9]")) {
      s = "attachment" + (s.isEmpty() ? "" : "-" + s);
    }
    return s;
  }
}
