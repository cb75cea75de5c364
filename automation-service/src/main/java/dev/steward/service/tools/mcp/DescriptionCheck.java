package dev.steward.service.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Looks through what a server says about a tool — its description and every string in its
 * schema, where poisoned instructions hide as often — for what is aimed at the model rather than
 * at the user: imperatives to the assistant, text the user cannot see (Unicode tag characters,
 * invisible format characters, long runs of blank space). A finding is a flag shown beside the
 * tool when the user reviews it; it never decides on its own.
 */
final class DescriptionCheck {

  private static final List<Pattern> AIMED_AT_THE_MODEL = patterns(
      "ignore (all |any )?(the )?(previous|prior|above|earlier|other) (instructions|messages|prompts|rules)",
      "(do not|don't|never) (tell|inform|mention|show|reveal|notify)[^.\\n]{0,40}\\b(user|human)",
      "<\\s*/?\\s*(important|system|instructions?|secret)\\s*>",
      "before (using|calling|you use|you call|running) (this|any|the|other) tools?",
      "\\b(the assistant|the model|the ai|the llm|claude|chatgpt|gemini)\\b[^.\\n]{0,20}\\b(must|should|needs? to|is required to|has to|shall)\\b",
      "\\byou (must|should) (always|never|first|not|also|secretly|silently|immediately)\\b",
      "\\b(system prompt|your instructions|new instructions)\\b",
      "(read|send|upload|include|pass|attach)[^.\\n]{0,60}(~/|\\.ssh|id_rsa|\\.env\\b|passwords?|api[_ -]?keys?|secrets?|credentials|private keys?)",
      "\\b(also|first|always) (call|use|run|invoke) ");

  /** Runs of this much blank space push text out of sight in most dialogs. */
  private static final Pattern BLANK_RUN = Pattern.compile("[ \\t\\n\\r\\u00a0]{40,}");

  private DescriptionCheck() {}

  /** The flags for a tool's description and the strings of its schema, each said once. */
  static List<String> flags(String description, JsonNode inputSchema) {
    return flags(null, description, inputSchema);
  }

  /** The flags for a tool's title, description and the strings of its schema, each said once. */
  static List<String> flags(
      @org.jspecify.annotations.Nullable String title, String description, JsonNode inputSchema) {
    List<String> texts = new ArrayList<>();
    if (title != null) texts.add(title);
    texts.add(description);
    strings(inputSchema, texts);
    Set<String> flags = new LinkedHashSet<>();
    for (String text : texts) check(text, flags);
    return List.copyOf(flags);
  }

  private static void check(String text, Set<String> flags) {
    int tags = 0;
    int invisible = 0;
    for (int i = 0; i < text.length(); ) {
      int cp = text.codePointAt(i);
      if (cp >= 0xE0000 && cp <= 0xE007F) tags++;
      else if (Character.getType(cp) == Character.FORMAT || variationSelector(cp)) invisible++;
      i += Character.charCount(cp);
    }
    if (tags > 0) flags.add("hidden text: " + tags + " Unicode tag characters the user cannot see");
    if (invisible > 0) flags.add("hidden text: " + invisible + " invisible formatting characters");
    if (BLANK_RUN.matcher(text).find())
      flags.add("a long run of blank space that can push text out of sight");
    String lower = skeleton(text);
    for (Pattern p : AIMED_AT_THE_MODEL) {
      Matcher m = p.matcher(lower);
      if (m.find()) {
        // One finding per text is enough to make the user read it.
        flags.add("instructions aimed at the assistant: “"
            + excerpt(lower.length() == text.length() ? text : lower, m) + "”");
        return;
      }
    }
  }

  /** Variation selectors draw nothing, yet can carry bytes a model reads (one per selector). */
  private static boolean variationSelector(int cp) {
    return (cp >= 0xFE00 && cp <= 0xFE0F) || (cp >= 0xE0100 && cp <= 0xE01EF);
  }

  /**
   * The text as the patterns read it: compatibility forms folded (full-width letters, ligatures),
   * the Cyrillic and Greek letters that look like Latin ones read as those, and lower case. Folding
   * keeps most lengths, and an excerpt is cut from the text as it was only where it kept them.
   */
  static String skeleton(String text) {
    String folded = java.text.Normalizer.normalize(text, java.text.Normalizer.Form.NFKC);
    StringBuilder out = new StringBuilder(folded.length());
    for (int i = 0; i < folded.length(); i++) {
      char c = folded.charAt(i);
      int at = LOOKALIKES.indexOf(c);
      out.append(at >= 0 ? LATIN.charAt(at) : c);
    }
    return out.toString().toLowerCase(Locale.ROOT);
  }

  private static final String LOOKALIKES = "аеорсхуіјѕԁһӏАВЕКМНОРСТХІЈЅαεικνορτυχΑΒΕΗΙΚΜΝΟΡΤΥΧ";
  private static final String LATIN = "aeopcxyijsdhlABEKMHOPCTXIJSaeikvoptuxABEHIKMNOPTYX";

  private static String excerpt(String text, Matcher m) {
    int start = Math.max(0, m.start() - 20);
    int end = Math.min(text.length(), m.end() + 20);
    // Whole words at both ends, where one is near: a word cut short reads as a typo.
    for (int i = 0; i < 15 && start > 0 && !Character.isWhitespace(text.charAt(start - 1)); i++)
      start--;
    for (int i = 0;
        i < 15 && end < text.length() && Character.isLetterOrDigit(text.charAt(end));
        i++) end++;
    String s = text.substring(start, end).replaceAll("\\s+", " ").strip();
    return (start > 0 ? "…" : "") + s + (end < text.length() ? "…" : "");
  }

  private static void strings(JsonNode node, List<String> out) {
    if (node.isTextual()) out.add(node.asText());
    else if (node.isObject()) {
      node.fieldNames().forEachRemaining(out::add);
      node.elements().forEachRemaining(child -> strings(child, out));
    } else if (node.isArray()) node.elements().forEachRemaining(child -> strings(child, out));
  }

  private static List<Pattern> patterns(String... regexes) {
    List<Pattern> out = new ArrayList<>();
    for (String r : regexes) out.add(Pattern.compile(r));
    return List.copyOf(out);
  }
}
