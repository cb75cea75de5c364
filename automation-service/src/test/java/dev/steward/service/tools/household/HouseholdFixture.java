package dev.steward.service.tools.household;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.service.scope.PathScope;
import dev.steward.service.tools.Tool;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolFailure;
import dev.steward.service.tools.UndoContext;
import dev.steward.service.tools.UndoStash;
import dev.steward.service.undo.UndoRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The household tools over one database, called as the gate calls them once it has checked a
 * call: {@link #call} runs a tool, {@link #undo} undoes a write from the record it kept.
 */
final class HouseholdFixture implements AutoCloseable {

  final HouseholdDb db;
  private final Map<String, Tool> tools = new LinkedHashMap<>();
  private final Path stash;
  /** The undo record the last write kept, if it kept one. */
  @Nullable
  UndoRecord lastUndo;
  /** Whether the undo area refuses every record (a full disk). */
  boolean undoAreaBroken;
  /**
   * What the user's click approved, by argument pointer (the gate's {@code approvedStamps}); the
   * calls are then made as confirmed ones.
   */
  @Nullable
  Map<String, String> approved;
  /** Whether the calls run in a conversation that has taken in untrusted content. */
  boolean afterUntrusted;
  /** What the calls said tainted their conversation, in order ({@code ToolContext.taint}). */
  final List<String> taints = new ArrayList<>();

  HouseholdFixture(HouseholdDb db, Path stash) {
    this.db = db;
    this.stash = stash;
    for (Tool t :
        HouseholdPack.tools(Catalogue.shipped(), () -> db, Optional::empty, Optional::empty)) {
      tools.put(t.name(), t);
    }
  }

  static HouseholdFixture h2(Path dir) throws ToolFailure, IOException {
    Files.createDirectories(dir.resolve("db"));
    return new HouseholdFixture(HouseholdDb.local(dir.resolve("db"), Clock.systemUTC()), dir);
  }

  Tool tool(String name) {
    Tool t = tools.get(name);
    if (t == null) throw new IllegalArgumentException("no tool " + name);
    return t;
  }

  JsonNode call(String name, JsonNode args) throws ToolFailure {
    lastUndo = null;
    UndoStash keep = new UndoStash() {
      @Override
      public Path folder() {
        return stash;
      }

      @Override
      public void save(UndoRecord record) throws IOException {
        if (undoAreaBroken) throw new IOException("No space left on device");
        lastUndo = record;
      }
    };
    PathScope scope = PathScope.of(List.of(), List.of(), stash);
    return tool(name)
        .run(
            args,
            new ToolContext(
                Map.of(),
                scope,
                m -> {},
                true,
                keep,
                false,
                approved != null,
                approved == null ? Map.of() : approved,
                afterUntrusted,
                taints::add));
  }

  /** The gate's look before a call is shown ({@link Tool#checkNow}). */
  void check(String name, JsonNode args) throws ToolFailure {
    tool(name)
        .checkNow(args, ToolContext.forCheck(Map.of(), PathScope.of(List.of(), List.of(), stash)));
  }

  /** The call's preview for the person approving it ({@code forPerson}) or for the agent. */
  Optional<JsonNode> preview(String name, JsonNode args, boolean forPerson) {
    return tool(name)
        .preview(
            args,
            ToolContext.forPreview(Map.of(), PathScope.of(List.of(), List.of(), stash), forPerson));
  }

  JsonNode call(String name, Object... kv) throws ToolFailure {
    return call(name, args(kv));
  }

  JsonNode undo(UndoRecord record) throws ToolFailure {
    PathScope scope = PathScope.of(List.of(), List.of(), stash);
    return tool(record.tool()).undo(record, new UndoContext(scope, stash));
  }

  /**
   * Every row of every table, by table, in id order, and the remembered results of keyed writes
   * (under "household_write"): the whole state, for exact comparisons.
   */
  Map<String, List<ObjectNode>> dump() throws ToolFailure {
    return db.transaction(tx -> {
      Map<String, List<ObjectNode>> all = new LinkedHashMap<>();
      for (Table t : Table.values()) {
        all.put(t.sql, new ArrayList<>(tx.rows(t, "1 = 1", List.of(), "id")));
      }
      List<ObjectNode> writes = new ArrayList<>();
      try (var st = tx.connection()
              .prepareStatement(
                  "SELECT idempotency_key, tool, args_hash, result FROM household_write"
                      + " ORDER BY idempotency_key");
          var rs = st.executeQuery()) {
        while (rs.next()) {
          ObjectNode w = Json.object();
          w.put("idempotency_key", rs.getString(1));
          w.put("tool", rs.getString(2));
          w.put("args_hash", rs.getString(3));
          w.put("result", rs.getString(4));
          writes.add(w);
        }
      }
      all.put("household_write", writes);
      return all;
    });
  }

  List<ObjectNode> rows(Table table) throws ToolFailure {
    return java.util.Objects.requireNonNull(dump().get(table.sql));
  }

  static ObjectNode args(Object... kv) {
    ObjectNode n = Json.object();
    for (int i = 0; i < kv.length; i += 2) n.set((String) kv[i], Json.tree(kv[i + 1]));
    return n;
  }

  /** An ingredient line as the tools take it; {@code quantity} is written as given. */
  static ObjectNode line(
      String id, String quantity, String unit, @Nullable String prep, @Nullable String source) {
    ObjectNode n = Json.object();
    n.put("ingredient_id", id);
    n.put("quantity", new java.math.BigDecimal(quantity));
    n.put("unit", unit);
    if (prep != null) n.put("prep_state", prep);
    if (source != null) n.put("source_recipe_id", source);
    return n;
  }

  @Override
  public void close() {
    db.close();
  }
}
