package dev.steward.service.tools;

import dev.steward.service.scope.PathScope;
import dev.steward.service.scope.ResolvedPath;
import java.util.Map;
import java.util.function.Consumer;

/**
 * What a running tool may use: the paths the gate resolved for this call (by argument pointer),
 * the scope (for listings that must hide refused names), a way to report progress, and whether the
 * user approved this call as destructive (a call approved as a new-file write must not overwrite),
 * the undo stash where a mutating call keeps what it replaces, whether a user's click approved
 * exactly this call ({@code confirmed}: a token was spent on it), and the stamps its paths were
 * checked against that approval with ({@code approvedStamps}, by pointer: {@link
 * dev.steward.service.scope.FileStamp}; empty for a call approved otherwise), and whether the
 * conversation had taken in untrusted content before this call ({@code tainted}: a call that runs
 * unasked in one may do less than the same call approved), and a way to say that what the call is
 * bringing back came from strangers after all ({@code taint}: a search's hit in a file marked as a
 * download), which taints the conversation before the result reaches it.
 */
public record ToolContext(
    Map<String, ResolvedPath> paths,
    PathScope scope,
    Consumer<String> progress,
    boolean approvedDestructive,
    UndoStash undo,
    boolean forPerson,
    boolean confirmed,
    Map<String, String> approvedStamps,
    boolean tainted,
    Consumer<String> taint) {

  public ToolContext {
    approvedStamps = Map.copyOf(approvedStamps);
  }

  /** A running call's context in a conversation that took in nothing untrusted. */
  public ToolContext(
      Map<String, ResolvedPath> paths,
      PathScope scope,
      Consumer<String> progress,
      boolean approvedDestructive,
      UndoStash undo,
      boolean forPerson,
      boolean confirmed,
      Map<String, String> approvedStamps) {
    this(
        paths,
        scope,
        progress,
        approvedDestructive,
        undo,
        forPerson,
        confirmed,
        approvedStamps,
        false,
        source -> {});
  }

  /** A running call's context, not bound to stamps. */
  public ToolContext(
      Map<String, ResolvedPath> paths,
      PathScope scope,
      Consumer<String> progress,
      boolean approvedDestructive,
      UndoStash undo,
      boolean forPerson,
      boolean confirmed) {
    this(paths, scope, progress, approvedDestructive, undo, forPerson, confirmed, Map.of());
  }

  /** A running call's context. */
  public ToolContext(
      Map<String, ResolvedPath> paths,
      PathScope scope,
      Consumer<String> progress,
      boolean approvedDestructive,
      UndoStash undo) {
    this(paths, scope, progress, approvedDestructive, undo, false, false);
  }

  /** A context for asking {@link Tool#destructive} before anything is approved. */
  public static ToolContext forCheck(Map<String, ResolvedPath> paths, PathScope scope) {
    return new ToolContext(paths, scope, message -> {}, false, UndoStash.none(), false, false);
  }

  /**
   * A context for {@link Tool#preview}: {@code forPerson} when the preview is for the window, which
   * may show file contents (a diff); an agent's preview must not carry what it could not read with
   * a row of its own, so nothing of the kind is even computed for it.
   */
  public static ToolContext forPreview(
      Map<String, ResolvedPath> paths, PathScope scope, boolean forPerson) {
    return new ToolContext(paths, scope, message -> {}, false, UndoStash.none(), forPerson, false);
  }

  public ResolvedPath path(String pointer) {
    ResolvedPath p = paths.get(pointer);
    if (p == null) throw new IllegalStateException("the gate did not resolve " + pointer);
    return p;
  }

  /** Throws when the call was cancelled or timed out, so long loops stop promptly. */
  public static void checkCancelled() throws ToolFailure {
    if (Thread.currentThread().isInterrupted()) {
      throw new ToolFailure(
          dev.steward.protocol.tool.ToolErrorCodes.CANCELLED, "the call was cancelled");
    }
  }
}
