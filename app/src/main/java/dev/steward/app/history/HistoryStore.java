package dev.steward.app.history;

import dev.steward.app.config.OwnerOnly;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Conversations kept in {@code data/chat-history} — an H2 database of the app's own, apart from
 * the service's audit log. A conversation is saved whole after each turn, in one transaction, so
 * a crash leaves the previous version, never half of a new one.
 */
public final class HistoryStore implements AutoCloseable {

  private final Connection db;

  private HistoryStore(Connection db) {
    this.db = db;
  }

  /** Opens the history in {@code dataDir}, made the owner's alone if it is not there. */
  public static HistoryStore open(Path dataDir) throws SQLException, java.io.IOException {
    OwnerOnly.folder(dataDir);
    Connection c = DriverManager.getConnection("jdbc:h2:file:"
        + dataDir.resolve("chat-history").toAbsolutePath() + ";DB_CLOSE_ON_EXIT=FALSE");
    try (Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE IF NOT EXISTS conversation (id VARCHAR(64) PRIMARY KEY, title VARCHAR(200) NOT NULL,"
              + " created_at TIMESTAMP WITH TIME ZONE NOT NULL, updated_at TIMESTAMP WITH TIME ZONE NOT NULL)");
      s.execute(
          "CREATE TABLE IF NOT EXISTS entry (conversation_id VARCHAR(64) NOT NULL, seq INT NOT NULL, kind VARCHAR(16) NOT NULL,"
              + " text CLOB, call_id VARCHAR(80), tool VARCHAR(200), risk VARCHAR(16), state VARCHAR(16), summary VARCHAR(400),"
              + " arguments CLOB, result CLOB, PRIMARY KEY (conversation_id, seq))");
      s.execute("ALTER TABLE entry ADD COLUMN IF NOT EXISTS written_at TIMESTAMP WITH TIME ZONE");
      s.execute(
          "ALTER TABLE conversation ADD COLUMN IF NOT EXISTS renamed BOOLEAN DEFAULT FALSE NOT NULL");
    }
    c.setAutoCommit(false);
    c.commit();
    return new HistoryStore(c);
  }

  public synchronized List<Conversation> list() throws SQLException {
    List<Conversation> out = new ArrayList<>();
    try (Statement s = db.createStatement();
        ResultSet rs = s.executeQuery(
            "SELECT id, title, updated_at, renamed FROM conversation ORDER BY updated_at DESC")) {
      while (rs.next())
        out.add(new Conversation(
            rs.getString(1), rs.getString(2), rs.getTimestamp(3).toInstant(), rs.getBoolean(4)));
    }
    db.commit();
    return out;
  }

  public synchronized Conversation create(String title) throws SQLException {
    String id = UUID.randomUUID().toString();
    Instant now = Instant.now();
    try (PreparedStatement p = db.prepareStatement(
        "INSERT INTO conversation (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)")) {
      p.setString(1, id);
      p.setString(2, title);
      p.setTimestamp(3, Timestamp.from(now));
      p.setTimestamp(4, Timestamp.from(now));
      p.executeUpdate();
    }
    db.commit();
    return new Conversation(id, title, now, false);
  }

  /** Gives a conversation the user's title, which later turns keep. */
  public synchronized void rename(String id, String title) throws SQLException {
    try (PreparedStatement p =
        db.prepareStatement("UPDATE conversation SET title = ?, renamed = TRUE WHERE id = ?")) {
      p.setString(1, title);
      p.setString(2, id);
      if (p.executeUpdate() == 0) throw new SQLException("no conversation " + id);
    }
    db.commit();
  }

  /** The conversations whose title or any message holds {@code text}, ignoring case. */
  public synchronized java.util.Set<String> search(String text) throws SQLException {
    String like = "%"
        + text.toLowerCase(java.util.Locale.ROOT)
            .replace("\\", "\\\\")
            .replace("%", "\\%")
            .replace("_", "\\_")
        + "%";
    java.util.Set<String> out = new java.util.HashSet<>();
    try (PreparedStatement p =
        db.prepareStatement("SELECT id FROM conversation WHERE LOWER(title) LIKE ? ESCAPE '\\'"
            + " UNION SELECT DISTINCT conversation_id FROM entry"
            + " WHERE kind IN ('user', 'assistant') AND LOWER(text) LIKE ? ESCAPE '\\'")) {
      p.setString(1, like);
      p.setString(2, like);
      try (ResultSet rs = p.executeQuery()) {
        while (rs.next()) out.add(rs.getString(1));
      }
    }
    db.commit();
    return out;
  }

  /** Puts back a deleted conversation as it was: its id, title, time and entries. */
  public synchronized void restore(Conversation c, List<StoredEntry> entries) throws SQLException {
    try (PreparedStatement p = db.prepareStatement(
        "INSERT INTO conversation (id, title, created_at, updated_at, renamed) VALUES (?, ?, ?, ?, ?)")) {
      p.setString(1, c.id());
      p.setString(2, c.title());
      p.setTimestamp(3, Timestamp.from(c.updatedAt()));
      p.setTimestamp(4, Timestamp.from(c.updatedAt()));
      p.setBoolean(5, c.renamed());
      p.executeUpdate();
      insertEntries(c.id(), entries);
      db.commit();
    } catch (SQLException e) {
      db.rollback();
      throw e;
    }
  }

  /** Replaces a conversation's entries (and its title) in one transaction. */
  public synchronized void save(String id, String title, List<StoredEntry> entries)
      throws SQLException {
    try {
      try (PreparedStatement p = db.prepareStatement(
          "UPDATE conversation SET title = CASE WHEN renamed THEN title ELSE ? END,"
              + " updated_at = ? WHERE id = ?")) {
        p.setString(1, title);
        p.setTimestamp(2, Timestamp.from(Instant.now()));
        p.setString(3, id);
        if (p.executeUpdate() == 0) throw new SQLException("no conversation " + id);
      }
      try (PreparedStatement p =
          db.prepareStatement("DELETE FROM entry WHERE conversation_id = ?")) {
        p.setString(1, id);
        p.executeUpdate();
      }
      insertEntries(id, entries);
      db.commit();
    } catch (SQLException e) {
      db.rollback();
      throw e;
    }
  }

  private void insertEntries(String id, List<StoredEntry> entries) throws SQLException {
    try (PreparedStatement p = db.prepareStatement(
        "INSERT INTO entry (conversation_id, seq, kind, text, call_id, tool, risk, state, summary, arguments, result, written_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)")) {
      int seq = 0;
      for (StoredEntry e : entries) {
        p.setString(1, id);
        p.setInt(2, seq++);
        p.setString(3, e.kind());
        p.setString(4, e.text());
        p.setString(5, e.callId());
        p.setString(6, e.tool());
        p.setString(7, e.risk());
        p.setString(8, e.state());
        p.setString(
            9,
            e.summary() == null
                ? null
                : e.summary().substring(0, Math.min(400, e.summary().length())));
        p.setString(10, e.arguments());
        p.setString(11, e.result());
        Instant at = e.at();
        p.setTimestamp(12, at == null ? null : Timestamp.from(at));
        p.addBatch();
      }
      p.executeBatch();
    }
  }

  public synchronized List<StoredEntry> entries(String id) throws SQLException {
    List<StoredEntry> out = new ArrayList<>();
    try (PreparedStatement p = db.prepareStatement(
        "SELECT kind, text, call_id, tool, risk, state, summary, arguments, result, written_at FROM entry WHERE conversation_id = ? ORDER BY seq")) {
      p.setString(1, id);
      try (ResultSet rs = p.executeQuery()) {
        while (rs.next()) {
          out.add(new StoredEntry(
              rs.getString(1),
              nonNull(rs.getString(2)),
              rs.getString(3),
              rs.getString(4),
              rs.getString(5),
              rs.getString(6),
              rs.getString(7),
              rs.getString(8),
              rs.getString(9),
              instant(rs.getTimestamp(10))));
        }
      }
    }
    db.commit();
    return out;
  }

  /** Deletes a conversation and its entries; false when there was none (deleted already). */
  public synchronized boolean delete(String id) throws SQLException {
    try (PreparedStatement a = db.prepareStatement("DELETE FROM entry WHERE conversation_id = ?");
        PreparedStatement b = db.prepareStatement("DELETE FROM conversation WHERE id = ?")) {
      a.setString(1, id);
      a.executeUpdate();
      b.setString(1, id);
      boolean was = b.executeUpdate() > 0;
      db.commit();
      return was;
    } catch (SQLException e) {
      db.rollback();
      throw e;
    }
  }

  private static @Nullable Instant instant(@Nullable Timestamp t) {
    return t == null ? null : t.toInstant();
  }

  private static String nonNull(@Nullable String s) {
    return s == null ? "" : s;
  }

  @Override
  public synchronized void close() {
    try {
      db.close();
    } catch (SQLException e) {
      // closing anyway
    }
  }
}
