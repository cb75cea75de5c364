package dev.steward.service.tools.web;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The values of the user's configured headers that a fetch sent, kept out of what it brings back:
 * a server that echoes its request (an API's "invalid token X", a test endpoint's copy of the
 * headers) would otherwise hand a secret from {@code config/} to the model.
 */
final class SentSecrets {

  /** Shorter values are not worth hiding and would cut words out of any text. */
  static final int SHORTEST = 6;

  /** Each spelling of a sent value, longest first when replaced, to what stands in for it. */
  private final Map<String, String> spellings = new LinkedHashMap<>();

  /**
   * Adds a header's value as sent, as the URL-encoded text a redirect could carry it in, and its
   * last word alone (the token of {@code Bearer <token>}).
   */
  void add(String name, String value) {
    String shown = "«your " + name + " header»";
    String v = value.strip();
    List<String> forms = new ArrayList<>(List.of(v, URLEncoder.encode(v, StandardCharsets.UTF_8)));
    int space = v.lastIndexOf(' ');
    if (space > 0) {
      String last = v.substring(space + 1);
      forms.add(last);
      forms.add(URLEncoder.encode(last, StandardCharsets.UTF_8));
    }
    for (String form : forms) {
      if (form.length() >= SHORTEST) spellings.putIfAbsent(form, shown);
    }
  }

  boolean isEmpty() {
    return spellings.isEmpty();
  }

  /** {@code text} with every sent value in it replaced by what stands in for it. */
  String clean(String text) {
    if (spellings.isEmpty()) return text;
    String out = text;
    List<String> longestFirst = new ArrayList<>(spellings.keySet());
    longestFirst.sort(Comparator.comparingInt(String::length).reversed());
    for (String value : longestFirst) {
      if (out.contains(value)) out = out.replace(value, spellings.get(value));
    }
    return out;
  }
}
