package dev.steward.service.tools.household;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.scope.FileStamp;
import dev.steward.service.tools.BaseTool;
import dev.steward.service.tools.Tool;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolDefinitions;
import dev.steward.service.tools.ToolFailure;
import dev.steward.service.tools.UndoContext;
import dev.steward.service.tools.UndoStash;
import dev.steward.service.tools.VersionStamp;
import dev.steward.service.undo.UndoRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * One household tool: its definition (a JSON resource beside the pack) and what it does in a
 * transaction. A write is all or nothing; a write that carries an {@code idempotency_key} it has
 * seen before answers the first result and changes nothing; every write keeps the rows it changed,
 * before and after, for {@code tool.undo}.
 */
sealed class HouseholdTool extends BaseTool permits HouseholdTool.Write {

  /** What the tool does inside the transaction. */
  @FunctionalInterface
  interface Action {
    JsonNode apply(Tx tx, JsonNode args) throws SQLException, ToolFailure;
  }

  /**
   * Where the database is when it is on another machine (its address without parameters), or
   * empty for one on this machine.
   */
  @FunctionalInterface
  interface Remote {
    Optional<String> where();
  }

  /** The database the pack uses now (the user can point it elsewhere at any time). */
  @FunctionalInterface
  interface Source {
    HouseholdDb db() throws ToolFailure;
  }

  static final String KEY = "idempotency_key";
  /** What a conversation is tainted by when a household row shows a stranger's words. */
  static final String STRANGERS =
      "household rows written in a conversation that had taken in untrusted content";

  private static final String KIND = "rows";
  private static final long MARGIN_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(1);
  private static final long NOTE_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(2);
  private static final Logger LOG = Logger.getLogger(HouseholdTool.class.getName());

  final Source source;
  final Action action;
  private final boolean destructive;
  private final java.util.function.Supplier<Optional<String>> unavailable;
  final Remote remote;

  /** A reading tool, or a {@link Write} when its definition says it mutates. */
  static Tool of(
      String tool,
      Source source,
      java.util.function.Supplier<Optional<String>> unavailable,
      Remote remote,
      boolean destructive,
      Action action) {
    ToolDefinition definition = ToolDefinitions.load(HouseholdTool.class, tool + ".json");
    return definition.mutates()
        ? new Write(definition, source, unavailable, remote, destructive, action)
        : new HouseholdTool(definition, source, unavailable, remote, false, action);
  }

  HouseholdTool(
      ToolDefinition definition,
      Source source,
      java.util.function.Supplier<Optional<String>> unavailable,
      Remote remote,
      boolean destructive,
      Action action) {
    super(definition);
    this.source = source;
    this.unavailable = unavailable;
    this.remote = remote;
    this.destructive = destructive;
    this.action = action;
  }

  /** A database on another machine receives every call: its tools send, whatever they do. */
  @Override
  public boolean sends(JsonNode args) {
    return definition().sends() || remote.where().isPresent();
  }

  @Override
  public Optional<String> unavailable() {
    return unavailable.get();
  }

  @Override
  public boolean destructive(JsonNode args, ToolContext ctx) {
    return destructive;
  }

  /**
   * A database on another machine is written by whoever else signs in to it, and its errors are
   * its server's words: all it answers is a stranger's (ADR 42).
   */
  @Override
  public Optional<String> taintSource(JsonNode args, ToolContext ctx) {
    return remote
        .where()
        .map(where -> "the household database at " + where + " (others write its rows)");
  }

  @Override
  public JsonNode run(JsonNode args, ToolContext ctx) throws ToolFailure {
    Shown shown = source
        .db()
        .transaction(
            deadline(),
            ctx.tainted(),
            tx -> new Shown(action.apply(tx, args), tx.showsStrangers()));
    return shown.given(ctx);
  }

  /** When the call's time limit ends, less a margin for keeping its undo record and answering. */
  long deadline() {
    return System.nanoTime() + timeLimit().toNanos() - MARGIN_NANOS;
  }

  /** An answer, and whether it shows words a stranger wrote. */
  record Shown(JsonNode value, boolean strangers) {
    /** The answer, the conversation tainted first when it shows a stranger's words. */
    JsonNode given(ToolContext ctx) {
      if (!strangers) return value;
      // The taint is written to a file; a Stop or the time limit landing now, with the change
      // committed, would close its channel mid-write: as with the undo record, the interrupt is
      // put aside and then put back.
      boolean interrupted = Thread.interrupted();
      try {
        ctx.taint().accept(STRANGERS);
      } finally {
        if (interrupted) Thread.currentThread().interrupt();
      }
      return value;
    }
  }

  /** On another machine, the dialog says where the call's words go. */
  @Override
  public Optional<JsonNode> preview(JsonNode args, ToolContext ctx) {
    return remote
        .where()
        .map(where -> Json.object()
            .put(
                "says",
                "Run " + name() + " on the household database at " + where
                    + ": what the call is given is sent there"));
  }

  /** The row says where a call to a database on another machine went. */
  @Override
  public String summarize(JsonNode args, JsonNode value) {
    JsonNode summary = value.path("summary");
    String said = summary.isTextual() ? summary.asText() : "ok";
    return remote.where().map(where -> said + " (at " + where + ")").orElse(said);
  }

  /** A digest of the call's arguments but its key, keys in order, so a true retry matches. */
  static String argsHash(JsonNode args) {
    ObjectNode copy = args.deepCopy();
    copy.remove(KEY);
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256")
          .digest(Json.write(sorted(copy)).getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Object sorted(JsonNode node) {
    if (node.isObject()) {
      TreeMap<String, Object> out = new TreeMap<>();
      node.fields().forEachRemaining(e -> out.put(e.getKey(), sorted(e.getValue())));
      return out;
    }
    if (node.isArray()) {
      List<Object> out = new ArrayList<>();
      for (JsonNode n : node) out.add(sorted(n));
      return out;
    }
    return node;
  }
  /** A tool that changes rows: idempotent by key, all or nothing, undoable. */
  static final class Write extends HouseholdTool {

    /** The argument naming what a write acts on; a write that only creates acts on none. */
    private static final Map<String, String> ACTS_ON = Map.of(
        "recipe.update", "/recipe_id",
        "planner.add_meal", "/recipe_id",
        "planner.remove_meal", "/planner_meal_id",
        "grocery.push_ingredients", "/grocery_list_id",
        "grocery.add_item", "/grocery_list_id",
        "grocery.check_item", "/grocery_item_id",
        "grocery.uncheck_item", "/grocery_item_id");

    /**
     * The dialog's sentence for each write, in Steward's words: it quotes no title (one could end
     * the quote and go on as if Steward spoke); the rows stand in the lines below it.
     */
    private static final Map<String, String> SAYS = Map.of(
        "recipe.create",
        "Create the recipe below (it can be undone)",
        "recipe.update",
        "Change the recipe below; the recipe as it was is kept for undo",
        "planner.add_meal",
        "Plan the meal below (it can be undone)",
        "planner.remove_meal",
        "Remove the planned meal below; it is kept for undo",
        "grocery.create_list",
        "Create the grocery list below (it can be undone)",
        "grocery.push_ingredients",
        "Add to the grocery list below; matching items add up (it can be undone)",
        "grocery.add_item",
        "Add the item below to the grocery list (it can be undone)",
        "grocery.check_item",
        "Tick the item below (it can be undone)",
        "grocery.uncheck_item",
        "Untick the item below (it can be undone)");

    Write(
        ToolDefinition tool,
        Source source,
        java.util.function.Supplier<Optional<String>> unavailable,
        Remote remote,
        boolean destructive,
        Action action) {
      super(tool, source, unavailable, remote, destructive, action);
    }

    /**
     * The call run in a transaction that is rolled back, so that one a dialog would show but that
     * could not run (a date not in the calendar, an id that is not there, a name taken) is refused
     * before the click. Not on a database on another machine: that would send the call before it.
     */
    @Override
    public void checkNow(JsonNode args, ToolContext ctx) throws ToolFailure {
      if (remote.where().isPresent()) return;
      String hash = argsHash(args);
      source.db().dryRun(tx -> apply(tx, args, hash, null));
    }

    /**
     * The rows the call acts on, as they are now (the rows it changes and the rows it shows): a
     * token binds them as the dialog showed them. None for a write that only creates, nor on a
     * database on another machine (reading them would send the call before the click).
     */
    @Override
    public List<String> versions(JsonNode args) {
      String pointer = ACTS_ON.get(name());
      if (pointer == null || remote.where().isPresent()) return List.of();
      try {
        String hash = argsHash(args);
        String version = source.db().dryRun(tx -> {
          apply(tx, args, hash, null);
          return tx.version();
        });
        return List.of(version == null ? FileStamp.unmatched() : VersionStamp.of(pointer, version));
      } catch (ToolFailure e) {
        // Not there is a state the dialog can show; not read is none, and approves nothing.
        return List.of(
            e.error().code().equals(ToolErrorCodes.NOT_FOUND)
                ? VersionStamp.missing(pointer)
                : FileStamp.unmatched());
      } catch (RuntimeException e) {
        return List.of(FileStamp.unmatched());
      }
    }

    /**
     * What the call will do, from a dry run: its rows as they are and as they will be. The
     * agent's preview has the sentence only: the rows' words are for the person who approves (an
     * agent reads them with calls of its own, which taint when they must).
     */
    @Override
    public Optional<JsonNode> preview(JsonNode args, ToolContext ctx) {
      if (remote.where().isPresent()) return super.preview(args, ctx);
      ObjectNode p = Json.object().put("says", SAYS.getOrDefault(name(), "Run " + name()));
      if (!ctx.forPerson()) return Optional.of(p);
      try {
        String hash = argsHash(args);
        Look look = source.db().dryRun(tx -> {
          Outcome o = apply(tx, args, hash, null);
          return new Look(
              o.shown().value().path("replayed").asBoolean(), ChangeLines.of(tx, o.changes()));
        });
        if (look == null) return Optional.of(p);
        if (look.replay()) {
          p.put("says", "Nothing changes: a call with this idempotency_key was made already");
        } else {
          p.put("diff", look.lines());
        }
        return Optional.of(p);
      } catch (ToolFailure e) {
        return Optional.empty();
      }
    }

    private record Look(boolean replay, String lines) {}

    @Override
    public JsonNode run(JsonNode args, ToolContext ctx) throws ToolFailure {
      String hash = argsHash(args);
      Outcome outcome =
          source.db().transaction(deadline(), ctx.tainted(), tx -> apply(tx, args, hash, ctx));
      JsonNode result = outcome.shown().given(ctx);
      if (!outcome.changes().isEmpty()
          && !keep(ctx.undo(), UndoRecord.of(name(), KIND, undoData(outcome)))) {
        JsonNode noted = notUndoable(result);
        String key = outcome.key();
        if (key != null) rememberNoted(key, noted);
        return noted;
      }
      return result;
    }

    /**
     * The first result was kept with the change, before its undo record failed: a retry with the
     * key must say, as the first answer did, that the change cannot be undone. Should this fail
     * too, the retry answers without the note; the change stands either way.
     */
    private void rememberNoted(String key, JsonNode noted) {
      boolean interrupted = Thread.interrupted();
      try {
        // A short time of its own: the call's limit (or a Stop) has perhaps passed already.
        source.db().transaction(System.nanoTime() + NOTE_NANOS, false, tx -> {
          tx.rememberAgain(key, noted);
          return key;
        });
      } catch (ToolFailure e) {
        LOG.log(
            Level.WARNING,
            name() + ": a retry with its key will not say it cannot be undone: " + e.getMessage());
      } finally {
        if (interrupted) Thread.currentThread().interrupt();
      }
    }

    /**
     * The rows' images, with the call's key when it had one, so that an undo can retire the key:
     * a retry must not answer a change that no longer stands.
     */
    private static JsonNode undoData(Outcome outcome) {
      JsonNode changes = Tx.changesJson(outcome.changes());
      if (outcome.key() == null) return changes;
      ObjectNode data = Json.object();
      data.set("changes", changes);
      data.put(KEY, outcome.key());
      return data;
    }

    /** The answer of a change that stands but could not be kept for an undo, saying so. */
    private static JsonNode notUndoable(JsonNode result) {
      if (!(result instanceof ObjectNode out)) return result;
      out.put("undoable", false);
      String said = out.path("summary").isTextual() ? out.path("summary").asText() : "done";
      out.put("summary", said + " (it cannot be undone: its undo record could not be kept)");
      return out;
    }

    private record Outcome(
        Shown shown, List<Tx.Change> changes, @Nullable String key) {}

    /**
     * The action, or the first result of a call with the same key and arguments. A call the user
     * approved ({@code run}'s context) changes its rows only as the dialog showed them.
     */
    private Outcome apply(Tx tx, JsonNode args, String hash, @Nullable ToolContext approval)
        throws SQLException, ToolFailure {
      String key = args.path(KEY).isTextual() ? args.path(KEY).asText() : null;
      if (key != null) {
        Optional<Tx.Remembered> first = tx.remembered(key);
        if (first.isPresent()) {
          if (!first.get().tool().equals(name()) || !first.get().argsHash().equals(hash)) {
            throw Failures.invalid(
                "/" + KEY, "this idempotency_key was used for a different call; use a new one");
          }
          if (first.get().undoneAt() != null) {
            throw new ToolFailure(
                ToolErrorCodes.CONFLICT,
                "the first call with this idempotency_key (at " + first.get().firstAt()
                    + ") was undone at " + first.get().undoneAt()
                    + "; to make the change again, use a new key",
                "/" + KEY,
                null);
          }
          return new Outcome(
              new Shown(replayed(first.get()), first.get().fromStrangers()), List.of(), key);
        }
      }
      JsonNode result = action.apply(tx, args);
      if (approval != null) checkApproved(tx, approval);
      if (key != null) tx.remember(key, name(), hash, result);
      return new Outcome(new Shown(result, tx.showsStrangers()), tx.changes(), key);
    }

    /**
     * Refuses, before its commit, a change to rows other than as the dialog showed them: the
     * gate checks the stamps before the run, and this closes the moment between. A token from
     * before rows were bound approves none.
     */
    private void checkApproved(Tx tx, ToolContext ctx) throws ToolFailure {
      String pointer = ACTS_ON.get(name());
      if (pointer == null || !ctx.confirmed() || remote.where().isPresent()) return;
      String shown = ctx.approvedStamps().get(pointer);
      if (shown == null || !shown.equals(VersionStamp.of(pointer, tx.version()))) {
        throw new ToolFailure(
            ToolErrorCodes.TOKEN_MISMATCH,
            "the household rows changed after the dialog showed them, so nothing was changed: it"
                + " needs approving again",
            pointer,
            null);
      }
    }

    /**
     * The first result again, saying it is one: this call changed nothing (the audit row takes
     * its summary), and the first may have been followed by other changes.
     */
    private static JsonNode replayed(Tx.Remembered first) {
      JsonNode result = first.result().deepCopy();
      if (!(result instanceof ObjectNode out)) return result;
      out.put("replayed", true);
      out.put("first_run_at", first.firstAt());
      String said = out.path("summary").isTextual() ? out.path("summary").asText() : "done";
      out.put("summary", "no change; first run at " + first.firstAt() + ": " + said);
      return out;
    }

    /**
     * Kept once the change is committed, so no undo record ever describes a change that did not
     * happen; answers whether it was kept. Should the undo area fail, the change stands, and the
     * answer and the audit row say it cannot be undone. A time limit or a Stop that lands once the
     * change is committed interrupts the thread, and an interrupt closes the undo area's file
     * channel mid-write: the record is written with the interrupt put aside, then put back.
     */
    static boolean keep(UndoStash undo, UndoRecord record) {
      boolean interrupted = Thread.interrupted();
      try {
        undo.save(record);
        return true;
      } catch (IOException e) {
        LOG.log(Level.WARNING, record.tool() + ": the change cannot be undone: " + e.getMessage());
        return false;
      } finally {
        if (interrupted) Thread.currentThread().interrupt();
      }
    }

    @Override
    public JsonNode undo(UndoRecord record, UndoContext ctx) throws ToolFailure {
      JsonNode data = record.data();
      if (!KIND.equals(record.kind()) || data == null) {
        throw new ToolFailure(ToolErrorCodes.INTERNAL, "the undo record holds no household rows");
      }
      List<Tx.Change> changes = Tx.changesFrom(data.isObject() ? data.path("changes") : data);
      String key = data.path(KEY).isTextual() ? data.path(KEY).asText() : null;
      List<String> restored = source.db().transaction(tx -> {
        List<String> done = tx.revert(changes);
        if (key != null) tx.undone(key);
        return done;
      });
      ArrayNode out = Json.mapper().createArrayNode();
      restored.forEach(out::add);
      return out;
    }
  }
}
