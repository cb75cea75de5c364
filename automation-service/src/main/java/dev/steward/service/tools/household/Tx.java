package dev.steward.service.tools.household;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.tools.ToolFailure;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One transaction of the pack: rows read and written as JSON images, and every change kept (the
 * row before and after), so that a write can be undone exactly — and refused when a row has
 * changed since, rather than overwriting a later change.
 */
final class Tx {

  /** A row a write touched; {@code before} is null for a row it created. */
  record Change(Table table, String id, @Nullable ObjectNode before, ObjectNode after) {}

  /** JDBC's "operation cancelled": the call was stopped between two statements. */
  static final String STOPPED = "HY008";
  /** The state both databases give a statement cancelled by its timeout. */
  static final String TIMED_OUT = "57014";

  private final Connection connection;
  private final long deadline;
  private final Instant now;
  private final boolean afterUntrusted;
  private final List<Change> changes = new ArrayList<>();
  private boolean showsStrangers;
  private final List<ObjectNode> shown = new ArrayList<>();

  /**
   * {@code afterUntrusted}: the call runs in a conversation that took in untrusted content, so
   * the words it writes are a stranger's ({@link Table#FROM_STRANGERS}).
   */
  Tx(Connection connection, long deadline, Instant now, boolean afterUntrusted) {
    this.connection = connection;
    this.deadline = deadline;
    // Both databases keep microseconds: an image taken now must equal the row read back later.
    this.now = now.truncatedTo(ChronoUnit.MICROS);
    this.afterUntrusted = afterUntrusted;
  }

  /**
   * The next statement, if the call may still run one: a statement timeout (PostgreSQL's, set once
   * per transaction) bounds one statement, not the transaction's many, and an interrupt does not
   * reach a thread in a socket read. {@link HouseholdDb} tells {@link #STOPPED} as CANCELLED and
   * {@link #TIMED_OUT} as TIMEOUT.
   */
  private PreparedStatement statement(String sql) throws SQLException {
    if (Thread.currentThread().isInterrupted()) {
      throw new SQLException("the call was stopped", STOPPED);
    }
    long left = deadline - System.nanoTime();
    if (left <= 0) throw new SQLException("the call ran out of time", TIMED_OUT);
    PreparedStatement st = connection.prepareStatement(sql);
    // Whole seconds, rounded up: JDBC's unit; 0 would mean none.
    st.setQueryTimeout(
        (int) Math.max(1, Math.min(Integer.MAX_VALUE, (left + 999_999_999L) / 1_000_000_000L)));
    return st;
  }

  /** The transaction's connection, for work no image describes (a benchmark's baseline). */
  Connection connection() {
    return connection;
  }

  String now() {
    return now.toString();
  }

  List<Change> changes() {
    return List.copyOf(changes);
  }

  /** Notes that the call's answer shows this row's words. */
  void shows(ObjectNode row) {
    if (row.path(Table.FROM_STRANGERS).asBoolean()) showsStrangers = true;
    // Its words, not when it was last touched: another machine's push into a list leaves the
    // list as a dialog that names it showed it.
    ObjectNode words = row.deepCopy();
    words.remove("updated_at");
    shown.add(words);
  }

  /**
   * The state of what the call acts on, as its dialog would show it: every row it changes, as it
   * was, and every row its answer shows. Rows it creates are not in it (their ids are new).
   */
  String version() {
    ArrayNode out = Json.mapper().createArrayNode();
    for (Change c : changes) {
      ObjectNode before = c.before();
      if (before == null) continue;
      // As a shown row: a push into a list touches the list, and another machine's push between
      // the dialog and the click must not unbind a dialog that names the list.
      ObjectNode words = before.deepCopy();
      words.remove("updated_at");
      out.addObject().put("table", c.table().sql).put("id", c.id()).set("before", words);
    }
    shown.forEach(out::add);
    return Json.write(out);
  }

  /** Whether the answer shows words a stranger wrote: then it taints the conversation. */
  boolean showsStrangers() {
    return showsStrangers;
  }

  /**
   * Marks a row as a stranger's when this call writes words into it after untrusted content; a
   * row that was one stays one, whatever is merged into it.
   */
  private void mark(Table table, @Nullable ObjectNode before, ObjectNode after) {
    if (!table.marked()) return;
    boolean was = before != null && before.path(Table.FROM_STRANGERS).asBoolean();
    boolean wordsWritten =
        before == null || table.words.stream().anyMatch(w -> !before.path(w).equals(after.path(w)));
    after.put(Table.FROM_STRANGERS, was || (afterUntrusted && wordsWritten));
  }

  /** The row with this id, deleted or not; locked for this transaction when {@code forUpdate}. */
  Optional<ObjectNode> row(Table table, String id, boolean forUpdate) throws SQLException {
    List<ObjectNode> found = rows(table, "id = ?", List.of(id), "id", forUpdate);
    return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
  }

  List<ObjectNode> rows(Table table, String where, List<?> params, String orderBy)
      throws SQLException {
    return rows(table, where, params, orderBy, false);
  }

  List<ObjectNode> rows(
      Table table, String where, List<?> params, String orderBy, boolean forUpdate)
      throws SQLException {
    String sql = "SELECT " + table.columnList() + " FROM " + table.sql + " WHERE " + where
        + " ORDER BY " + orderBy + (forUpdate ? " FOR UPDATE" : "");
    try (PreparedStatement st = statement(sql)) {
      for (int i = 0; i < params.size(); i++) st.setObject(i + 1, params.get(i));
      try (ResultSet rs = st.executeQuery()) {
        List<ObjectNode> out = new ArrayList<>();
        while (rs.next()) out.add(read(table, rs));
        return out;
      }
    }
  }

  /** A count or another single number. */
  long count(String sql, List<?> params) throws SQLException {
    try (PreparedStatement st = statement(sql)) {
      for (int i = 0; i < params.size(); i++) st.setObject(i + 1, params.get(i));
      try (ResultSet rs = st.executeQuery()) {
        return rs.next() ? rs.getLong(1) : 0;
      }
    }
  }

  void insert(Table table, ObjectNode row) throws SQLException {
    mark(table, null, row);
    StringBuilder marks = new StringBuilder();
    for (int i = 0; i < table.columns.size(); i++) marks.append(i == 0 ? "?" : ", ?");
    try (PreparedStatement st = statement(
        "INSERT INTO " + table.sql + " (" + table.columnList() + ") VALUES (" + marks + ")")) {
      bind(st, table, row, 1);
      st.executeUpdate();
    }
    changes.add(new Change(table, row.path("id").asText(), null, row.deepCopy()));
  }

  void update(Table table, ObjectNode before, ObjectNode after) throws SQLException {
    mark(table, before, after);
    if (before.equals(after)) return;
    set(table, after);
    changes.add(new Change(table, after.path("id").asText(), before.deepCopy(), after.deepCopy()));
  }

  private void set(Table table, ObjectNode row) throws SQLException {
    StringBuilder assignments = new StringBuilder();
    for (Table.Column c : table.columns) {
      if (assignments.length() > 0) assignments.append(", ");
      assignments.append(c.name()).append(" = ?");
    }
    try (PreparedStatement st =
        statement("UPDATE " + table.sql + " SET " + assignments + " WHERE id = ?")) {
      int next = bind(st, table, row, 1);
      st.setString(next, row.path("id").asText());
      if (st.executeUpdate() != 1) throw new SQLException("the row " + row.path("id") + " is gone");
    }
  }

  /**
   * Puts back what {@code changes} did, newest first, after checking that every row is still as
   * the write left it; answers a line per row put back.
   */
  List<String> revert(List<Change> done) throws SQLException, ToolFailure {
    List<Change> reversed = new ArrayList<>(done);
    java.util.Collections.reverse(reversed);
    // Lists first, as the tools lock them: a push waiting on a list cannot write an item back
    // over what this undo puts there.
    for (Change c : reversed) {
      if (c.table() == Table.ITEM) row(Table.LIST, c.after().path("list_id").asText(), true);
    }
    for (Change c : reversed) {
      Optional<ObjectNode> current = row(c.table(), c.id(), true);
      if (current.isEmpty() || !current.get().equals(c.after())) {
        throw new ToolFailure(
            ToolErrorCodes.ALREADY_EXISTS,
            "the " + c.table().sql.replace('_', ' ') + " " + c.id()
                + " has changed since; undo the later changes first. Nothing was changed",
            "/audit_id",
            null);
      }
    }
    List<String> restored = new ArrayList<>();
    for (Change c : reversed) {
      ObjectNode before = c.before();
      if (before == null) {
        try (PreparedStatement st = statement("DELETE FROM " + c.table().sql + " WHERE id = ?")) {
          st.setString(1, c.id());
          st.executeUpdate();
        } catch (SQLException e) {
          if (!"23503".equals(e.getSQLState())) throw e;
          throw new ToolFailure(
              ToolErrorCodes.ALREADY_EXISTS,
              "later changes refer to the " + c.table().sql.replace('_', ' ') + " " + c.id()
                  + " (a planned meal, an item); undo those first. Nothing was changed",
              "/audit_id",
              null);
        }
        restored.add("removed " + c.table().sql.replace('_', ' ') + " " + c.id());
      } else {
        set(c.table(), before);
        restored.add("restored " + c.table().sql.replace('_', ' ') + " " + c.id());
      }
    }
    return restored;
  }

  /** The first result of the write that carried this key, with what that write was. */
  record Remembered(
      String tool,
      String argsHash,
      JsonNode result,
      boolean fromStrangers,
      String firstAt,
      @Nullable String undoneAt) {}

  Optional<Remembered> remembered(String key) throws SQLException {
    try (PreparedStatement st =
        statement("SELECT tool, args_hash, result, from_strangers, created_at, undone_at"
            + " FROM household_write WHERE idempotency_key = ?")) {
      st.setString(1, key);
      try (ResultSet rs = st.executeQuery()) {
        if (!rs.next()) return Optional.empty();
        JsonNode result;
        try {
          result = Json.mapper()
              .reader()
              .with(
                  com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
              .readTree(rs.getString(3));
        } catch (java.io.IOException e) {
          throw new SQLException("a remembered result cannot be read", e);
        }
        OffsetDateTime undone = rs.getObject(6, OffsetDateTime.class);
        return Optional.of(new Remembered(
            rs.getString(1),
            rs.getString(2),
            result,
            rs.getBoolean(4),
            rs.getObject(5, OffsetDateTime.class).toInstant().toString(),
            undone == null ? null : undone.toInstant().toString()));
      }
    }
  }

  /**
   * Keeps a keyed write's first result; a stranger's when it showed a stranger's row or its call
   * ran after untrusted content (its words are in it).
   */
  void remember(String key, String tool, String argsHash, JsonNode result) throws SQLException {
    try (PreparedStatement st = statement(
        "INSERT INTO household_write (idempotency_key, tool, args_hash, result, created_at,"
            + " from_strangers) VALUES (?, ?, ?, ?, ?, ?)")) {
      st.setString(1, key);
      st.setString(2, tool);
      st.setString(3, argsHash);
      st.setString(4, Json.write(result));
      st.setObject(5, OffsetDateTime.ofInstant(now, ZoneOffset.UTC));
      st.setBoolean(6, showsStrangers || afterUntrusted);
      st.executeUpdate();
    }
  }

  /** Replaces a keyed write's first result (with what its answer said after the commit). */
  void rememberAgain(String key, JsonNode result) throws SQLException {
    try (PreparedStatement st =
        statement("UPDATE household_write SET result = ? WHERE idempotency_key = ?")) {
      st.setString(1, Json.write(result));
      st.setString(2, key);
      st.executeUpdate();
    }
  }

  /** Notes that the write that carried {@code key} was undone: its key answers no more. */
  void undone(String key) throws SQLException {
    try (PreparedStatement st = statement(
        "UPDATE household_write SET undone_at = ? WHERE idempotency_key = ? AND undone_at IS NULL")) {
      st.setObject(1, OffsetDateTime.ofInstant(now, ZoneOffset.UTC));
      st.setString(2, key);
      st.executeUpdate();
    }
  }

  // ---- images ------------------------------------------------------------------------------

  static JsonNode changesJson(List<Change> changes) {
    ArrayNode out = Json.mapper().createArrayNode();
    for (Change c : changes) {
      ObjectNode n = out.addObject();
      n.put("table", c.table().sql);
      n.put("id", c.id());
      n.set("before", c.before());
      n.set("after", c.after());
    }
    return out;
  }

  static List<Change> changesFrom(JsonNode json) {
    List<Change> out = new ArrayList<>();
    for (JsonNode n : json) {
      Table table = Table.named(n.path("table").asText());
      JsonNode before = n.get("before");
      out.add(new Change(
          table,
          n.path("id").asText(),
          before == null || before.isNull() ? null : complete(table, (ObjectNode) before),
          complete(table, (ObjectNode) Objects.requireNonNull(n.get("after")))));
    }
    return out;
  }

  /**
   * An image kept before the table had its mark: the migration counted such rows as the
   * household's own, so the image does too.
   */
  private static ObjectNode complete(Table table, ObjectNode image) {
    if (table.marked() && !image.has(Table.FROM_STRANGERS)) {
      image.put(Table.FROM_STRANGERS, false);
    }
    return image;
  }

  private static ObjectNode read(Table table, ResultSet rs) throws SQLException {
    ObjectNode row = Json.object();
    for (Table.Column c : table.columns) {
      String name = c.name();
      switch (c.kind()) {
        case TEXT -> row.put(name, rs.getString(name));
        case INTEGER -> {
          int v = rs.getInt(name);
          if (rs.wasNull()) row.putNull(name);
          else row.put(name, v);
        }
        case DECIMAL -> {
          BigDecimal v = rs.getBigDecimal(name);
          row.put(name, v == null ? null : Quantity.text(v));
        }
        case BOOLEAN -> row.put(name, rs.getBoolean(name));
        case DATE -> {
          LocalDate v = rs.getObject(name, LocalDate.class);
          row.put(name, v == null ? null : v.toString());
        }
        case INSTANT -> {
          OffsetDateTime v = rs.getObject(name, OffsetDateTime.class);
          row.put(name, v == null ? null : v.toInstant().toString());
        }
      }
    }
    return row;
  }

  private static int bind(PreparedStatement st, Table table, ObjectNode row, int first)
      throws SQLException {
    int i = first;
    for (Table.Column c : table.columns) {
      JsonNode v = row.path(c.name());
      boolean absent = v.isNull() || v.isMissingNode();
      switch (c.kind()) {
        case TEXT -> {
          if (absent) st.setNull(i, Types.VARCHAR);
          else st.setString(i, v.asText());
        }
        case INTEGER -> {
          if (absent) st.setNull(i, Types.INTEGER);
          else st.setInt(i, v.asInt());
        }
        case DECIMAL -> {
          if (absent) st.setNull(i, Types.DECIMAL);
          else st.setBigDecimal(i, new BigDecimal(v.asText()));
        }
        case BOOLEAN -> st.setBoolean(i, v.asBoolean());
        case DATE -> {
          if (absent) st.setNull(i, Types.DATE);
          else st.setObject(i, LocalDate.parse(v.asText()));
        }
        case INSTANT -> {
          if (absent) st.setNull(i, Types.TIMESTAMP_WITH_TIMEZONE);
          else st.setObject(i, OffsetDateTime.ofInstant(Instant.parse(v.asText()), ZoneOffset.UTC));
        }
      }
      i++;
    }
    return i;
  }
}
