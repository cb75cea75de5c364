package dev.steward.service.tools;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * What a call's check before a dialog reads from outside the machine, read once for the whole
 * check: the look ({@link Tool#checkNow}), the stamp the click will bind ({@link Tool#versions})
 * and the preview the dialog shows then all see the same answer. Read apart, a server could answer
 * the stamp with one version and the preview with another, and the user would approve a version
 * they were not shown; and each read is a round trip before the dialog.
 *
 * <p>Only within {@link #during}, on the thread that runs the check; a call's run always reads
 * afresh.
 */
public final class OneLook {

  private static final ThreadLocal<@Nullable Map<String, Object>> SEEN = new ThreadLocal<>();

  private OneLook() {}

  /** Runs {@code check} with its reads kept for its length (within an outer one, the outer's). */
  public static <T> T during(Supplier<T> check) {
    if (SEEN.get() != null) return check.get();
    SEEN.set(new HashMap<>());
    try {
      return check.get();
    } finally {
      SEEN.remove();
    }
  }

  /** A read from outside. */
  @FunctionalInterface
  public interface Read<T> {
    T read() throws ToolFailure;
  }

  /**
   * What {@code read} answers, read once per check for this {@code key} (what is read, and where
   * from); a read that fails is not kept. Outside a check, read every time.
   */
  public static <T> T of(String key, Class<T> type, Read<T> read) throws ToolFailure {
    Map<String, Object> seen = SEEN.get();
    if (seen == null) return read.read();
    Object kept = seen.get(key);
    if (type.isInstance(kept)) return type.cast(kept);
    T value = read.read();
    seen.put(key, value);
    return value;
  }
}
