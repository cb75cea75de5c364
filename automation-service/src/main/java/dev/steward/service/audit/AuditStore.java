package dev.steward.service.audit;

import dev.steward.protocol.audit.AuditKind;
import dev.steward.protocol.audit.Decision;
import dev.steward.protocol.audit.Outcome;
import dev.steward.protocol.json.WireEnum;
import dev.steward.protocol.method.Audit;
import java.io.Closeable;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/** The H2 side of the audit log: an append-only table, batch inserts, filtered pages, a full scan. */
final class AuditStore implements Closeable {

  private static final String COLUMNS =
      "seq, kind, trace_id, call_id, tool, args_hash, args_preview, decision, reason, token_id,"
          + " result, error_code, summary, started_at, ended_at, prev_hash, row_hash";

  private final Connection writer;
  private final Connection reader;
  private final PreparedStatement insert;

  private AuditStore(Connection writer, Connection reader) throws SQLException {
    this.writer = writer;
    this.reader = reader;
    this.insert = writer.prepareStatement(
        "INSERT INTO audit (" + COLUMNS + ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
  }

  static String url(Path dataDir) {
    // An 8 MB page cache (H2 defaults to 64 MB): the log is appended to and read newest-first, so a
    // big cache mostly holds pages nobody reads again, in a background service meant to be small.
    // WRITE_DELAY=0: no background writer. H2 writes its file when the loader checkpoints (and when
    // unsaved changes pile up), in the thread that asks; with the background writer storing on its
    // own schedule, rows a returned CHECKPOINT covered were sometimes missing after a SIGKILL — and
    // the journal drops rows once they are checkpointed (CheckpointCrashIT, docs/decisions/0001).
    return "jdbc:h2:file:" + dataDir.resolve("audit").toAbsolutePath()
        + ";DB_CLOSE_ON_EXIT=FALSE;CACHE_SIZE=8192;WRITE_DELAY=0";
  }

  static AuditStore open(Path dataDir) throws SQLException {
    Connection writer = DriverManager.getConnection(url(dataDir));
    try (Statement s = writer.createStatement()) {
      s.execute("CREATE TABLE IF NOT EXISTS audit ("
          + "seq BIGINT PRIMARY KEY, kind VARCHAR(16) NOT NULL, trace_id VARCHAR(400),"
          + " call_id VARCHAR(400), tool VARCHAR(400), args_hash CHAR(64), args_preview VARCHAR(4000),"
          + " decision VARCHAR(16), reason VARCHAR(2000), token_id VARCHAR(64), result VARCHAR(8),"
          + " error_code VARCHAR(40), summary VARCHAR(2000), started_at BIGINT NOT NULL,"
          + " ended_at BIGINT, prev_hash CHAR(64) NOT NULL, row_hash CHAR(64) NOT NULL)");
      // No secondary indexes: each cost ~30 µs per row on every call, while the panel's queries
      // read newest-first by primary key and stop at a page (see docs/decisions/0001).
      s.execute("CREATE TABLE IF NOT EXISTS confirm_token (token_id VARCHAR(64) PRIMARY KEY,"
          + " record VARCHAR(100000) NOT NULL, expires_at BIGINT NOT NULL)");
    }
    writer.setAutoCommit(false);
    Connection reader = DriverManager.getConnection(url(dataDir));
    return new AuditStore(writer, reader);
  }

  long maxSeq() throws SQLException {
    synchronized (reader) {
      try (Statement s = reader.createStatement();
          ResultSet rs = s.executeQuery("SELECT COALESCE(MAX(seq), 0) FROM audit")) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  Optional<ChainedRow> row(long seq) throws SQLException {
    synchronized (reader) {
      try (PreparedStatement ps =
          reader.prepareStatement("SELECT " + COLUMNS + " FROM audit WHERE seq = ?")) {
        ps.setLong(1, seq);
        try (ResultSet rs = ps.executeQuery()) {
          return rs.next() ? Optional.of(read(rs)) : Optional.empty();
        }
      }
    }
  }

  /** Inserts rows in one transaction; rows already present (a replay) are skipped by the caller. */
  void insert(List<ChainedRow> rows) throws SQLException {
    try {
      for (ChainedRow r : rows) {
        AuditEntry e = r.entry();
        insert.setLong(1, r.seq());
        insert.setString(2, e.kind().wire());
        setText(3, e.traceId());
        setText(4, e.callId());
        setText(5, e.tool());
        setText(6, e.argsHash());
        setText(7, e.argsPreview());
        setText(8, WireEnum.wireOrNull(e.decision()));
        setText(9, e.reason());
        setText(10, e.tokenId());
        setText(11, WireEnum.wireOrNull(e.result()));
        setText(12, e.errorCode());
        setText(13, e.summary());
        insert.setLong(14, ChainedRow.micros(e.startedAt()));
        if (e.endedAt() == null) insert.setNull(15, Types.BIGINT);
        else insert.setLong(15, ChainedRow.micros(e.endedAt()));
        insert.setString(16, r.prevHash());
        insert.setString(17, r.rowHash());
        insert.addBatch();
      }
      insert.executeBatch();
      writer.commit();
    } catch (SQLException e) {
      writer.rollback();
      throw e;
    }
  }

  /** Forces what H2 has committed into its file, so the journal before it may be dropped. */
  void checkpoint() throws SQLException {
    try (Statement s = writer.createStatement()) {
      s.execute("CHECKPOINT");
    }
  }

  Audit.QueryResult query(Audit.QueryParams p, int limit) throws SQLException {
    StringBuilder sql = new StringBuilder("SELECT " + COLUMNS + " FROM audit WHERE 1=1");
    List<Object> args = new ArrayList<>();
    filter(p, sql, args);
    sql.append(" ORDER BY seq DESC LIMIT ?");
    args.add(limit + 1);
    List<Audit.Row> rows = select(sql.toString(), args);
    String next = null;
    if (rows.size() > limit) {
      rows.remove(rows.size() - 1);
      next = rows.get(rows.size() - 1).auditId();
    }
    return new Audit.QueryResult(rows, next);
  }

  /**
   * The rows among {@code seqs[from, to)} (numbers the text index found) that pass every filter, newest
   * first, at most {@code max}. The text filter is applied again: the index only narrows the search.
   */
  List<Audit.Row> queryAmong(Audit.QueryParams p, long[] seqs, int from, int to, int max)
      throws SQLException {
    StringBuilder sql = new StringBuilder("SELECT " + COLUMNS + " FROM audit WHERE seq IN (");
    for (int i = from; i < to; i++) {
      if (i > from) sql.append(',');
      sql.append(seqs[i]);
    }
    sql.append(')');
    List<Object> args = new ArrayList<>();
    filter(p, sql, args);
    sql.append(" ORDER BY seq DESC LIMIT ?");
    args.add(max);
    return select(sql.toString(), args);
  }

  private static void filter(Audit.QueryParams p, StringBuilder sql, List<Object> args) {
    if (p.tool() != null) {
      sql.append(" AND tool = ?");
      args.add(p.tool());
    }
    if (p.decision() != null) {
      sql.append(" AND decision = ?");
      args.add(Decision.of(p.decision()).wire());
    }
    if (p.result() != null) {
      sql.append(" AND result = ?");
      args.add(Outcome.of(p.result()).wire());
    }
    if (p.traceId() != null) {
      sql.append(" AND trace_id = ?");
      args.add(p.traceId());
    }
    if (p.since() != null) {
      sql.append(" AND started_at >= ?");
      args.add(ChainedRow.micros(p.since()));
    }
    if (p.until() != null) {
      sql.append(" AND started_at < ?");
      args.add(ChainedRow.micros(p.until()));
    }
    if (p.text() != null && !p.text().isBlank()) {
      String like = "%" + escapeLike(p.text().toLowerCase(Locale.ROOT)) + "%";
      sql.append(" AND (LOWER(tool) LIKE ? ESCAPE '\\' OR LOWER(summary) LIKE ? ESCAPE '\\'"
          + " OR LOWER(args_preview) LIKE ? ESCAPE '\\' OR LOWER(reason) LIKE ? ESCAPE '\\'"
          + " OR LOWER(trace_id) LIKE ? ESCAPE '\\' OR LOWER(call_id) LIKE ? ESCAPE '\\'"
          + " OR LOWER(error_code) LIKE ? ESCAPE '\\' OR LOWER(token_id) LIKE ? ESCAPE '\\')");
      for (int i = 0; i < 8; i++) args.add(like);
    }
    if (p.cursor() != null) {
      sql.append(" AND seq < ?");
      args.add(parseCursor(p.cursor()));
    }
  }

  private List<Audit.Row> select(String sql, List<Object> args) throws SQLException {
    List<Audit.Row> rows = new ArrayList<>();
    synchronized (reader) {
      try (PreparedStatement ps = reader.prepareStatement(sql)) {
        for (int i = 0; i < args.size(); i++) ps.setObject(i + 1, args.get(i));
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) rows.add(read(rs).toWire());
        }
      }
    }
    return rows;
  }

  /** Rows from {@code fromSeq} on, in chain order, handed over in batches (for the text index). */
  void scanFrom(long fromSeq, int batch, Batches each) throws SQLException, java.io.IOException {
    List<ChainedRow> rows = new ArrayList<>(batch);
    synchronized (reader) {
      try (PreparedStatement ps = reader.prepareStatement(
          "SELECT " + COLUMNS + " FROM audit WHERE seq >= ? ORDER BY seq")) {
        ps.setFetchSize(batch);
        ps.setLong(1, fromSeq);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            rows.add(read(rs));
            if (rows.size() == batch) {
              each.accept(rows);
              rows.clear();
            }
          }
        }
      }
    }
    if (!rows.isEmpty()) each.accept(rows);
  }

  interface Batches {
    void accept(List<ChainedRow> rows) throws java.io.IOException;
  }

  static long cursorSeq(String cursor) {
    return parseCursor(cursor);
  }

  /** Every row in chain order. */
  void scan(Consumer<ChainedRow> each) throws SQLException {
    synchronized (reader) {
      try (Statement s = reader.createStatement()) {
        s.setFetchSize(1000);
        try (ResultSet rs = s.executeQuery("SELECT " + COLUMNS + " FROM audit ORDER BY seq")) {
          while (rs.next()) each.accept(read(rs));
        }
      }
    }
  }

  /** Decision rows that used tokens, from {@code fromSeq} on (tokens live minutes, not days). */
  List<ChainedRow> tokenUses(long fromSeq) throws SQLException {
    List<ChainedRow> out = new ArrayList<>();
    synchronized (reader) {
      try (PreparedStatement ps = reader.prepareStatement(
          "SELECT " + COLUMNS + " FROM audit WHERE seq >= ? AND token_id IS NOT NULL AND kind = '"
              + AuditKind.DECISION.wire() + "'" + " AND decision = '" + Decision.CONFIRMED.wire()
              + "' ORDER BY seq")) {
        ps.setLong(1, fromSeq);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) out.add(read(rs));
        }
      }
    }
    return out;
  }

  // ---- confirm tokens' records (not the token values: those are never stored) ----

  void saveToken(String tokenId, String record, long expiresAtMicros) throws SQLException {
    synchronized (reader) {
      try (PreparedStatement ps = reader.prepareStatement(
          "MERGE INTO confirm_token (token_id, record, expires_at) KEY (token_id) VALUES (?,?,?)")) {
        ps.setString(1, tokenId);
        ps.setString(2, record);
        ps.setLong(3, expiresAtMicros);
        ps.executeUpdate();
      }
    }
  }

  void deleteToken(String tokenId) throws SQLException {
    synchronized (reader) {
      try (PreparedStatement ps =
          reader.prepareStatement("DELETE FROM confirm_token WHERE token_id = ?")) {
        ps.setString(1, tokenId);
        ps.executeUpdate();
      }
    }
  }

  List<String> liveTokens(long nowMicros) throws SQLException {
    List<String> out = new ArrayList<>();
    synchronized (reader) {
      try (PreparedStatement del =
          reader.prepareStatement("DELETE FROM confirm_token WHERE expires_at <= ?")) {
        del.setLong(1, nowMicros);
        del.executeUpdate();
      }
      try (Statement s = reader.createStatement();
          ResultSet rs = s.executeQuery("SELECT record FROM confirm_token")) {
        while (rs.next()) out.add(rs.getString(1));
      }
    }
    return out;
  }

  private void setText(int index, @Nullable String value) throws SQLException {
    if (value == null) insert.setNull(index, Types.VARCHAR);
    else insert.setString(index, value);
  }

  private static ChainedRow read(ResultSet rs) throws SQLException {
    long ended = rs.getLong(15);
    boolean hasEnded = !rs.wasNull();
    AuditEntry e = new AuditEntry(
        AuditKind.of(rs.getString(2)),
        rs.getString(3),
        rs.getString(4),
        rs.getString(5),
        rs.getString(6),
        rs.getString(7),
        rs.getString(8) == null ? null : Decision.of(rs.getString(8)),
        rs.getString(9),
        rs.getString(10),
        rs.getString(11) == null ? null : Outcome.of(rs.getString(11)),
        rs.getString(12),
        rs.getString(13),
        ChainedRow.instant(rs.getLong(14)),
        hasEnded ? ChainedRow.instant(ended) : null);
    return new ChainedRow(rs.getLong(1), e, rs.getString(16), rs.getString(17));
  }

  private static long parseCursor(String cursor) {
    try {
      return Long.parseLong(cursor);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "cursor \"" + cursor + "\" is not one this service gave out");
    }
  }

  private static String escapeLike(String text) {
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
  }

  @Override
  public void close() {
    for (Connection c : new Connection[] {reader, writer}) {
      try {
        c.close();
      } catch (SQLException e) {
        // closing at shutdown; nothing left to save
      }
    }
  }
}
