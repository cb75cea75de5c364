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
    return v.asText();
  }

  static @Nullable String optionalText(JsonNode args, String name) {
    JsonNode v = args.get(name);
    return v == null || v.isNull() ? null : v.asText();
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
