package dev.steward.service.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.tool.Risk;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.undo.UndoRecord;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A tool: its definition plus a handler. The gate has checked arguments, scopes and tokens before
 * {@link #run} is called; a tool never trusts anything else a client or model sent.
 */
public interface Tool {

  /** The most a value may take on the wire; the gate answers TOO_LARGE above it, and a listing stops short of it. */
  int MAX_RESULT_BYTES = 8 << 20;

  ToolDefinition definition();

  default String name() {
    return definition().name();
  }

  /** The path arguments of a call and the access each needs; the gate resolves and checks them. */
  default List<PathUse> paths(JsonNode args) {
    return List.of();
  }

  /** The URL arguments of a call; the gate checks them against the host scope (SPEC §5). */
  default List<HostUse> hosts(JsonNode args) {
    return List.of();
  }

  /**
   * Why the tool cannot run now (its server is down, the user has not accepted what it says it
   * does), or empty when it can; the gate refuses such a call with {@code UNAVAILABLE} before
   * anything else.
   */
  default Optional<String> unavailable() {
    return Optional.empty();
  }

  /** Whether the tool can change anything at all (mutating calls in a tainted conversation need a token). */
  default boolean mutates() {
    return definition().mutates();
  }

  /** Whether this call can change anything (a browser visit that saves a screenshot does). */
  default boolean mutates(JsonNode args) {
    return mutates();
  }

  /**
   * This call's risk, when it depends on the call (SPEC §13: reading an event the user made is
   * {@code high}, one Steward made is {@code low}; a code run with network is {@code high}). Never
   * lower than the definition's. Reads the world, never changes it; a tool whose answer depends on
   * what it reads must also check {@link ToolContext#confirmed} when it runs, since the world may
   * change between the check and the run.
   */
  default Risk risk(JsonNode args, ToolContext ctx) {
    return definition().risk();
  }

  /**
   * Whether this call can carry data off the machine (SPEC §10: in a tainted conversation it
   * needs a click). A call whose only way out is a URL argument is judged by the host scope.
   */
  default boolean sends(JsonNode args) {
    return definition().sends();
  }

  /**
   * Whether this call mutates or overwrites existing state (SPEC §2's dynamic approval: writing a
   * new file is not destructive, overwriting one is). Reads the world, never changes it.
   */
  default boolean destructive(JsonNode args, ToolContext ctx) {
    return false;
  }

  /** Arguments shown in the audit log only as size and hash (file contents, clipboard text). */
  default Set<String> sensitiveArgs() {
    return Set.of();
  }

  /**
   * Where this call's output comes from when it is untrusted content (SPEC §10 taint), e.g.
   * "file ~/Downloads/x.txt"; empty when the output is the tool's own data.
   */
  default Optional<String> taintSource(JsonNode args, ToolContext ctx) {
    return Optional.empty();
  }

  /**
   * What the schema cannot say about the arguments, checked before the call is judged, shown or
   * run (a failure is a refusal, with its row): a call that could not run as a dialog would show
   * it never reaches the dialog. Reads nothing but the arguments. The gate runs it before every
   * {@link #run}, the warm-up's calls included: {@code run} need not check again.
   */
  default void checkArgs(JsonNode args) throws ToolFailure {}

  /**
   * What the call would meet if it ran now (the paths it names, the policy's lists), looked at
   * for a call that needs the user's click before the click: at a preflight, and when it is sent
   * without a token. One that would fail as things stand is refused with its row rather than
   * offered for a click that could not make it run. A call that needs no click, or comes with the
   * click's token, goes straight to {@link #run}, which fails it the same way; so a look that
   * costs (a transaction rolled back) is paid only where it spares a click. Changes nothing;
   * {@code run} checks again, since the world may change.
   */
  default void checkNow(JsonNode args, ToolContext ctx) throws ToolFailure {}

  /**
   * A call that passed its checks is about to be shown for the user's click (its preflight
   * answered {@code confirm}): what its run would start first and that acts on nothing — a
   * program the tool drives, started with nothing to do — may begin, so that the run after the
   * click is quick. The call may never be approved and its model may be anyone's: this takes no
   * argument of the call, reads and changes none of the user's files, sends nothing, resolves no
   * host, and returns at once (the work goes on elsewhere); a failure is the run's to report.
   */
  default void prepare() {}

  /**
   * What the call acts on beyond its paths, each stamped as it is now ({@link VersionStamp}: a
   * calendar event's version on the server). A token binds them as the dialog showed them, as it
   * binds files: changed before the run, the call is refused; the run gets the approved ones in
   * {@link ToolContext#approvedStamps} by pointer, to act only on that version. Reads the world.
   */
  default List<String> versions(JsonNode args) {
    return List.of();
  }

  /**
   * A dry run of a mutating call for the confirmation dialog: resolved paths, what would be
   * overwritten, a diff for text. Reads the world, never changes it.
   */
  default Optional<JsonNode> preview(JsonNode args, ToolContext ctx) {
    return Optional.empty();
  }

  default Duration timeLimit() {
    return Duration.ofSeconds(30);
  }

  /**
   * Whether the tool looks again at each folder it takes away once it has it where no tool
   * reaches, against the stamp the user approved ({@link ToolContext#approvedStamps}): the gate
   * then does not walk such a folder a second time before the tool starts (a later look holds
   * more).
   */
  default boolean rechecksTakenFolders() {
    return false;
  }

  /**
   * Whether what a call does stays within the folders it names, so that a standing grant for
   * those folders ("Always allow here") can stand for the user's click. Not so for a tool whose
   * call starts something that acts on its own beyond them.
   */
  default boolean boundByItsFolders() {
    return true;
  }

  JsonNode run(JsonNode args, ToolContext ctx) throws ToolFailure;

  /**
   * Puts back what a call of this tool replaced ({@code tool.undo}), from the record the call
   * saved in its undo stash; answers what was restored. Only tools whose definition says {@code
   * undoable} keep anything to undo.
   */
  default JsonNode undo(UndoRecord record, UndoContext ctx) throws ToolFailure {
    throw new ToolFailure(ToolErrorCodes.NOT_FOUND, name() + " keeps nothing to undo");
  }

  /** A short deterministic summary of a successful result for the audit log. */
  default String summarize(JsonNode args, JsonNode value) {
    return "ok";
  }
}
