package dev.steward.protocol.tool;

import java.util.Locale;

/** Enums on the wire are their lower-case names. */
final class WireEnum {

  private WireEnum() {}

  static <E extends Enum<E>> E parse(Class<E> type, String text) {
    for (E value : type.getEnumConstants()) {
      if (value.name().toLowerCase(Locale.ROOT).equals(text)) {
        return value;
      }
    }
    throw new IllegalArgumentException(
        "unknown " + type.getSimpleName().toLowerCase(Locale.ROOT) + " \"" + text + "\"");
  }

  static String wire(Enum<?> value) {
    return value.name().toLowerCase(Locale.ROOT);
  }
}
