package dev.steward.service.undo;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What one call replaced, so {@code tool.undo} can put it back (SPEC §10). The tool that made the
 * call reads it back: {@code kind} and {@code items} are its own words — for the file tools
 * {@code write} (an overwrite), {@code move} or {@code delete} with one item per path — and a tool
 * that keeps something other than files puts it in {@code data}.
 */
public record UndoRecord(
    String tool,
    String kind,
    List<Item> items,
    boolean undone,
    @Nullable JsonNode data) {

  public static final String WRITE = "write";
  public static final String MOVE = "move";
  public static final String DELETE = "delete";

  public UndoRecord {
    Objects.requireNonNull(tool, "tool");
    Objects.requireNonNull(kind, "kind");
    items = List.copyOf(items);
  }

  /** A record of paths a file call changed. */
  public UndoRecord(String tool, String kind, List<Item> items, boolean undone) {
    this(tool, kind, items, undone, null);
  }

  /** A record of a call that changed something other than files: what it needs to put it back. */
  public static UndoRecord of(String tool, String kind, JsonNode data) {
    return new UndoRecord(tool, kind, List.of(), false, data);
  }

  /**
   * One path the call changed. {@code original} is where something was (a real path); {@code
   * moved_to} where the call put it (moves); {@code stash} the name, inside this call's undo
   * folder, of what was kept; {@code after} the fingerprint of what the call left behind, so an
   * undo can tell the path has changed since.
   */
  public record Item(
      String original,
      @Nullable String movedTo,
      @Nullable String stash,
      @Nullable String after) {}

  public UndoRecord asUndone() {
    return new UndoRecord(tool, kind, items, true, data);
  }
}
