package dev.steward.protocol.method;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.steward.protocol.json.WireEnum;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * {@code packs.settings} (ui role): the settings sections the tool packs declare, which the window
 * shows as forms of their own. A section's values are the object at {@code section} in {@code
 * policy.json} ({@code code}, or {@code packs.<name>} for a pack without a key of its own), saved
 * with {@code policy.update}; its secrets go to {@code secrets.set} under the pack's name and are
 * never read back.
 */
public final class PackSettings {

  private PackSettings() {}

  /** The answer: every declared section, in the packs' order. */
  public record Result(List<Section> sections) {
    public Result {
      sections = List.copyOf(sections);
    }
  }

  /**
   * @param pack the pack's name; its secrets are kept under it
   * @param section where its values live in {@code policy.json}, as dotted keys ({@code code},
   *     {@code packs.sample})
   */
  public record Section(
      String pack, String title, String hint, String section, List<Field> fields) {
    public Section {
      fields = List.copyOf(fields);
    }
  }

  /**
   * One setting. {@code key} names it in the section's object (or, for a secret, in the pack's
   * secrets); {@code fallback} is the value in effect when the policy has none, as text for every
   * kind ({@code "true"} / {@code "false"} for a toggle), so one field carries it on the wire; a
   * choice's is one of {@code choices}. A {@code required} text cannot be saved empty. A number is
   * a whole number from {@code min} to {@code max}.
   */
  public record Field(
      String key,
      String label,
      Kind kind,
      String help,
      @Nullable String fallback,
      List<String> choices,
      boolean required,
      @Nullable Long min,
      @Nullable Long max) {
    public Field {
      choices = List.copyOf(Objects.requireNonNullElse(choices, List.of()));
      help = Objects.requireNonNullElse(help, "");
    }

    /** A setting that is not a number. */
    public Field(
        String key,
        String label,
        Kind kind,
        String help,
        @Nullable String fallback,
        List<String> choices,
        boolean required) {
      this(key, label, kind, help, fallback, choices, required, null, null);
    }

    public static Field number(
        String key, String label, String help, long fallback, long min, long max) {
      return new Field(
          key, label, Kind.NUMBER, help, Long.toString(fallback), List.of(), false, min, max);
    }

    public static Field text(String key, String label, String help, @Nullable String fallback) {
      return new Field(key, label, Kind.TEXT, help, fallback, List.of(), false);
    }

    public static Field toggle(String key, String label, String help, boolean fallback) {
      return new Field(key, label, Kind.TOGGLE, help, Boolean.toString(fallback), List.of(), false);
    }

    public static Field secret(String key, String label, String help) {
      return new Field(key, label, Kind.SECRET, help, null, List.of(), false);
    }

    public Field asRequired() {
      return new Field(key, label, kind, help, fallback, choices, true, min, max);
    }

    /** The numbers this field takes, in words ({@code " from 1 to 10"}), or empty. */
    public String range() {
      if (min != null && max != null) return " from " + min + " to " + max;
      if (min != null) return " of at least " + min;
      if (max != null) return " of at most " + max;
      return "";
    }

    /** Whether {@code value} is a whole number this field takes. */
    public boolean takes(long value) {
      return (min == null || value >= min) && (max == null || value <= max);
    }
  }

  /**
   * How a setting is entered: a line of text, a check box, one of {@code choices}, a secret, a
   * whole number.
   */
  public enum Kind {
    TEXT,
    TOGGLE,
    CHOICE,
    SECRET,
    NUMBER;

    @JsonValue
    public String wire() {
      return WireEnum.wire(this);
    }

    @JsonCreator
    public static Kind of(String text) {
      return WireEnum.parse(Kind.class, text);
    }
  }
}
