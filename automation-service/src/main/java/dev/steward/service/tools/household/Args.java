package dev.steward.service.tools.household;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.service.tools.ToolFailure;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Reading a call's arguments after the gate checked them against the tool's schema: what the
 * schema cannot say (a real calendar date, an id in the catalogue) is checked here, each refusal
 * naming its field.
 */
final class Args {

  private static final Pattern ISO_DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");

  private Args() {}

  static String text(JsonNode args, String name) throws ToolFailure {
    JsonNode v = args.get(name);
    if (v == null || !v.isTextual()) throw Failures.invalid("/" + name, name + " is required");
    return plain(v.asText(), "/" + name, false);
  }

  /** Text that may be absent; {@code multiline} admits line breaks and tabs (instructions, notes). */
  static @Nullable String optionalText(JsonNode args, String name, boolean multiline)
      throws ToolFailure {
    JsonNode v = args.get(name);
    return v == null || v.isNull() ? null : plain(v.asText(), "/" + name, multiline);
  }

  static @Nullable String optionalText(JsonNode args, String name) throws ToolFailure {
    return optionalText(args, name, false);
  }

  /**
   * Refuses control characters (NUL is refused by PostgreSQL and would make the two databases
   * disagree; the others hide text from the person reading it).
   */
  static String plain(String value, String field, boolean multiline) throws ToolFailure {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      boolean allowed = multiline && (c == '\n' || c == '\r' || c == '\t');
      if ((c < 0x20 || c == 0x7f) && !allowed) {
        throw Failures.invalid(field, "control characters are not taken here");
      }
    }
    return value;
  }

  private static final Pattern PREP = Pattern.compile("[a-z][a-z -]{0,39}");

  /** A preparation ("chopped", "thinly sliced"), or null for none; lower case, as it is matched. */
  static @Nullable String prep(JsonNode line, String field) throws ToolFailure {
    String prep = optionalText(line, "prep_state");
    if (prep != null && !PREP.matcher(prep).matches()) {
      throw Failures.invalid(
          field + "/prep_state",
          "prep_state is lower-case words (\"chopped\", \"thinly sliced\"), not \"" + prep + "\"");
    }
    return prep;
  }

  /** How names are compared for uniqueness: "Shop" and "shop" are one name. */
  static String folded(String name) {
    return name.toLowerCase(java.util.Locale.ROOT);
  }

  /** A name or title: trimmed, and not empty once trimmed. */
  static String name(JsonNode args, String name) throws ToolFailure {
    String v = text(args, name).strip();
    if (v.isEmpty()) throw Failures.invalid("/" + name, name + " is empty");
    return v;
  }

  /** An ISO 8601 calendar date, {@code 2026-11-27}; {@code 2026-02-30} is refused. */
  static LocalDate date(JsonNode args, String name) throws ToolFailure {
    String v = text(args, name);
    if (!ISO_DATE.matcher(v).matches()) {
      throw Failures.invalid(
          "/" + name, name + " is an ISO 8601 date (YYYY-MM-DD), not \"" + v + "\"");
    }
    try {
      return LocalDate.parse(v);
    } catch (DateTimeParseException e) {
      throw Failures.invalid("/" + name, "\"" + v + "\" is not a date in the calendar");
    }
  }
}
