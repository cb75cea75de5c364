package dev.steward.protocol.json;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/** Enums on the wire are their lower-case names. */
public final class WireEnum {

  private WireEnum() {}

  public static <E extends Enum<E>> E parse(Class<E> type, String text) {
    for (E value : type.getEnumConstants()) {
      if (value.name().toLowerCase(Locale.ROOT).equals(text)) {
        return value;
      }
    }
    throw new IllegalArgumentException(
        "unknown " + type.getSimpleName().toLowerCase(Locale.ROOT) + " \"" + text + "\"");
  }

  public static @Nullable String wireOrNull(@Nullable Enum<?> value) {
    return value == null ? null : wire(value);
  }

  public static String wire(Enum<?> value) {
    return value.name().toLowerCase(Locale.ROOT);
  }
}
