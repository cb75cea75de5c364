package dev.steward.service.tools;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The user's secrets that a call sent (a fetch's configured headers; an MCP server's headers,
 * environment values and sign-in), kept out of what it brings back: a server that echoes its
 * request (an API's "invalid token X", a test endpoint's copy of the headers, a redirect that
 * carries them in its address, an error that quotes its connection string) would otherwise hand a
 * secret from {@code config/} to the model and the audit log. A value is found however the echo
 * spells it: in any case, and with any of its punctuation written as a URL's {@code %XX}, a JSON
 * {@code \\uXXXX} or {@code \\/}, or an HTML {@code &#N;}.
 */
public final class SentSecrets {

  /** Shorter values are not worth hiding and would cut words out of any text. */
  static final int SHORTEST = 6;

  /** Each piece of a sent value to what stands in for it. */
  private final Map<String, String> pieces = new LinkedHashMap<>();

  /** Each piece as its echoes may spell it, longest first, with what stands in for it. */
  private final List<Map.Entry<Pattern, String>> spellings = new ArrayList<>();

  private @Nullable Pattern any;

  /** Adds a header's value as sent: {@link #add(String, String, String)} as "your X header". */
  public void add(String name, String value) {
    add(name, value, "your " + name + " header");
  }

  /**
   * Adds a value as sent, its words (a cookie's values, {@code Bearer <token>}'s token), and, for
   * a Basic credential, what it encodes and its password; {@code shownAs} stands in for it.
   */
  public void add(String name, String value, String shownAs) {
    String v = value.strip();
    List<String> forms = new ArrayList<>(List.of(v));
    String[] words = v.split("[\\s;,]+");
    for (int i = 0; i < words.length; i++) {
      String word = words[i];
      // The scheme before a credential ("Bearer", "Basic") is no secret; a cookie's name is not.
      if (i == 0 && words.length > 1 && word.chars().allMatch(Character::isLetter)) continue;
      int eq = word.indexOf('=');
      boolean named =
          eq > 0 && eq < word.length() - 1 && word.substring(0, eq).matches("[A-Za-z0-9_.-]+");
      forms.add(word);
      if (named) forms.add(word.substring(eq + 1));
    }
    if (v.regionMatches(true, 0, "Basic ", 0, 6)) {
      try {
        String decoded =
            new String(Base64.getDecoder().decode(v.substring(6).strip()), StandardCharsets.UTF_8);
        forms.add(decoded);
        int colon = decoded.indexOf(':');
        if (colon >= 0) forms.add(decoded.substring(colon + 1));
      } catch (IllegalArgumentException e) {
        // not Base64: its words are enough
      }
    }
    keep(forms, "«" + shownAs + "»");
  }

  /** Adds a value as sent, whole (not its words): {@code shownAs} stands in for it. */
  public void addWhole(String value, String shownAs) {
    keep(List.of(value.strip()), "«" + shownAs + "»");
  }

  private void keep(List<String> forms, String shown) {
    boolean added = false;
    for (String form : forms) {
      if (form.length() >= SHORTEST && pieces.putIfAbsent(form, shown) == null) added = true;
    }
    if (!added) return;
    List<String> longestFirst = new ArrayList<>(pieces.keySet());
    longestFirst.sort(Comparator.comparingInt(String::length).reversed());
    spellings.clear();
    List<String> alternatives = new ArrayList<>();
    for (String piece : longestFirst) {
      String spelled = spelledAnyWay(piece);
      alternatives.add(spelled);
      spellings.add(Map.entry(
          Pattern.compile(spelled, FLAGS), java.util.Objects.requireNonNull(pieces.get(piece))));
    }
    any = Pattern.compile(String.join("|", alternatives), FLAGS);
  }

  private static final int FLAGS = Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;

  /** A pattern for {@code piece} with each character as itself or in an escape that spells it. */
  private static String spelledAnyWay(String piece) {
    StringBuilder b = new StringBuilder("(?:");
    piece.codePoints().forEach(cp -> {
      String self = Pattern.quote(new String(Character.toChars(cp)));
      if (cp < 0x80 && !Character.isLetterOrDigit(cp)) {
        String hex = String.format("%02x", cp);
        b.append("(?:")
            .append(self)
            .append("|%")
            .append(hex)
            .append("|\\\\u00")
            .append(hex)
            .append("|&#")
            .append(cp)
            .append(';')
            .append("|&#x")
            .append(hex)
            .append(';');
        if (cp == '/') b.append("|\\\\/");
        if (cp == ' ') b.append("|\\+");
        b.append(')');
      } else {
        b.append(self);
      }
    });
    return b.append(')').toString();
  }

  /** {@code value} with every string value in it {@link #clean cleaned} (names are left). */
  public com.fasterxml.jackson.databind.JsonNode cleaned(
      com.fasterxml.jackson.databind.JsonNode value) {
    if (any == null) return value;
    if (value.isTextual())
      return com.fasterxml.jackson.databind.node.TextNode.valueOf(clean(value.asText()));
    if (value.isArray()) {
      com.fasterxml.jackson.databind.node.ArrayNode out =
          dev.steward.protocol.json.Json.mapper().createArrayNode();
      value.forEach(v -> out.add(cleaned(v)));
      return out;
    }
    if (value.isObject()) {
      com.fasterxml.jackson.databind.node.ObjectNode out = dev.steward.protocol.json.Json.object();
      value.fields().forEachRemaining(e -> out.set(e.getKey(), cleaned(e.getValue())));
      return out;
    }
    return value;
  }

  /** {@code text} with every sent value in it, however spelled, replaced by what stands in for it. */
  public String clean(String text) {
    Pattern p = any;
    if (p == null) return text;
    Matcher m = p.matcher(text);
    if (!m.find()) return text;
    StringBuilder out = new StringBuilder(text.length());
    do {
      m.appendReplacement(out, Matcher.quoteReplacement(shownFor(m.group())));
    } while (m.find());
    m.appendTail(out);
    return out.toString();
  }

  /** What stands in for a match: the header of the longest piece it spells. */
  private String shownFor(String match) {
    for (Map.Entry<Pattern, String> s : spellings) {
      if (s.getKey().matcher(match).matches()) return s.getValue();
    }
    throw new IllegalStateException("a match that spells no piece");
  }
}
