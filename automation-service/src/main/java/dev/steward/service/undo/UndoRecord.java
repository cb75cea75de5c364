package dev.steward.service.undo;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What one call replaced, so {@code tool.undo} can put it back (SPEC §10). {@code kind} is
 * {@code write} (an overwrite), {@code move} or {@code delete}.
 */
public record UndoRecord(String tool, String kind, List<Item> items, boolean undone) {

  public static final String WRITE = "write";
  public static final String MOVE = "move";
  public static final String DELETE = "delete";

  public UndoRecord {
    Objects.requireNonNull(tool, "tool");
    Objects.requireNonNull(kind, "kind");
    items = List.copyOf(items);
  }

  /**
   * One path the call changed. {@code original} is where something was (a real path); {@code
   * moved_to} where the call put it (moves); {@code stash} the name, inside this call's undo
   * folder, of what was kept; {@code after} the fingerprint of what the call left behind, so an
   * undo can tell the path has changed since.
   */
  public record Item(String original, @Nullable String movedTo, @Nullable String stash, @Nullable String after) {}

  public UndoRecord asUndone() {
    return new UndoRecord(tool, kind, items, true);
  }
}
