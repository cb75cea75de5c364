package dev.steward.service.tools.mail;

import dev.steward.protocol.json.Json;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;
import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcConnectionPool;
import org.h2.jdbcx.JdbcDataSource;
import org.jspecify.annotations.Nullable;

/**
 * The mail kept so far, in {@code data/mail/}: an H2 database with each mail's metadata and
 * summary and each message of the mailbox seen, and a folder per mail ({@code <mail_id>/}) with
 * its text ({@code text.txt}), the message as it came ({@code message.eml}) and its attachments.
 * A mail's folder is complete before its rows are committed, and is removed when keeping the mail
 * fails, so a crash between the two leaves at most a folder no row names.
 */
final class MailStore implements AutoCloseable {

  /** A mail as a search lists it. */
  record Found(String mailId, String from, String subject, Instant date, String summary) {}

  /** A mail's metadata with its attachments. */
  record Stored(
      String mailId,
      String from,
      List<String> to,
      String subject,
      Instant date,
      String summary,
      String summarySource,
      List<StoredAttachment> attachments) {}

  record StoredAttachment(String name, String fileName, long size, String type) {}

  /** A mail whose summary is still the extractive one. */
  record Pending(String mailId, String from, String subject, Instant date, String text) {}

  static final String EXTRACTIVE = "extractive";
  static final String MODEL = "model";

  private static final java.util.logging.Logger FLYWAY_LOG = quiet("org.flywaydb");
  private static final String MIGRATIONS = "classpath:dev/steward/service/tools/mail/db";
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Path folder;
  private final JdbcConnectionPool pool;

  private MailStore(Path folder, JdbcConnectionPool pool) {
    this.folder = folder;
    this.pool = pool;
  }

  private static java.util.logging.Logger quiet(String name) {
    java.util.logging.Logger log = java.util.logging.Logger.getLogger(name);
    log.setLevel(java.util.logging.Level.WARNING);
    return log;
  }

  static MailStore open(Path folder) throws IOException, SQLException {
    Files.createDirectories(folder);
    JdbcDataSource ds = new JdbcDataSource();
    ds.setURL("jdbc:h2:file:" + folder.resolve("mail").toAbsolutePath() + ";LOCK_TIMEOUT=10000");
    ds.setUser("mail");
    ds.setPassword("");
    JdbcConnectionPool pool = JdbcConnectionPool.create(ds);
    pool.setMaxConnections(8);
    try {
      Flyway.configure(MailStore.class.getClassLoader())
          .dataSource(pool)
          .locations(MIGRATIONS)
          .load()
          .migrate();
    } catch (RuntimeException e) {
      pool.dispose();
      throw new SQLException("the mail database cannot be set up: " + e.getMessage(), e);
    }
    return new MailStore(folder, pool);
  }

  Path folder() {
    return folder;
  }

  // ---- what was seen ----------------------------------------------------------------------

  /** The highest UID seen under this UIDVALIDITY, or 0. */
  long lastUid(long uidValidity) throws SQLException {
    try (Connection c = pool.getConnection();
        PreparedStatement st =
            c.prepareStatement("SELECT MAX(uid) FROM mail_seen WHERE uid_validity = ?")) {
      st.setLong(1, uidValidity);
      try (ResultSet rs = st.executeQuery()) {
        return rs.next() ? rs.getLong(1) : 0;
      }
    }
  }

  boolean seen(long uidValidity, long uid) throws SQLException {
    try (Connection c = pool.getConnection();
        PreparedStatement st =
            c.prepareStatement("SELECT 1 FROM mail_seen WHERE uid_validity = ? AND uid = ?")) {
      st.setLong(1, uidValidity);
      st.setLong(2, uid);
      try (ResultSet rs = st.executeQuery()) {
        return rs.next();
      }
    }
  }

  /** Why a message seen was not kept (or is still being read), if it was not. */
  Optional<String> problem(long uidValidity, long uid) throws SQLException {
    try (Connection c = pool.getConnection();
        PreparedStatement st = c.prepareStatement(
            "SELECT problem FROM mail_seen WHERE uid_validity = ? AND uid = ?")) {
      st.setLong(1, uidValidity);
      st.setLong(2, uid);
      try (ResultSet rs = st.executeQuery()) {
        return rs.next() ? Optional.ofNullable(rs.getString(1)) : Optional.empty();
      }
    }
  }

  /**
   * The mail already kept as this one (the same message under a new UIDVALIDITY): the same
   * Message-ID and the same content hash (sender, subject, text); a mail kept before the hash, by
   * its Message-ID, sender and subject.
   */
  Optional<String> same(ParsedMail mail) throws SQLException {
    String messageId = mail.messageId();
    if (messageId == null) return Optional.empty();
    try (Connection c = pool.getConnection();
        PreparedStatement st =
            c.prepareStatement("SELECT mail_id FROM mail WHERE message_id = ? AND (content_hash = ?"
                + " OR (content_hash IS NULL AND from_addr = ? AND subject = ?)) LIMIT 1")) {
      st.setString(1, messageId);
      st.setString(2, contentHash(mail));
      st.setString(3, mail.from());
      st.setString(4, mail.subject());
      try (ResultSet rs = st.executeQuery()) {
        return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
      }
    }
  }

  /**
   * Remembers a message that is not kept as a new mail (a copy of one kept, or one unreadable), or
   * one being read (its problem says so until it is kept).
   */
  void remember(long uidValidity, long uid, @Nullable String mailId, @Nullable String problem)
      throws SQLException {
    try (Connection c = pool.getConnection()) {
      seen(c, uidValidity, uid, mailId, problem);
    }
  }

  private static void seen(
      Connection c, long uidValidity, long uid, @Nullable String mailId, @Nullable String problem)
      throws SQLException {
    try (PreparedStatement st = c.prepareStatement(
        "MERGE INTO mail_seen (uid_validity, uid, mail_id, problem, seen_at) KEY (uid_validity, uid)"
            + " VALUES (?, ?, ?, ?, ?)")) {
      st.setLong(1, uidValidity);
      st.setLong(2, uid);
      st.setString(3, mailId);
      st.setString(4, problem == null ? null : MimeReader.clean(problem, 1000));
      st.setObject(5, OffsetDateTime.now(ZoneOffset.UTC));
      st.executeUpdate();
    }
  }

  // ---- keeping a mail ---------------------------------------------------------------------

  /**
   * Keeps a new mail: its folder first, then its rows, with the message it came as ({@code
   * uidValidity}, {@code uid}; both 0 for a mail not from the mailbox). Answers its id.
   */
  String add(long uidValidity, long uid, ParsedMail mail, byte[] raw, Instant received)
      throws IOException, SQLException {
    String id = newId();
    Path part = folder.resolve(id + ".part");
    boolean kept = false;
    try {
      add(id, part, uidValidity, uid, mail, raw, received);
      kept = true;
      return id;
    } finally {
      // Whatever failed, an exception or an Error, leaves no folder behind.
      if (!kept) {
        deleteQuietly(part);
        deleteQuietly(folder.resolve(id));
      }
    }
  }

  private void add(
      String id,
      Path part,
      long uidValidity,
      long uid,
      ParsedMail mail,
      byte[] raw,
      Instant received)
      throws IOException, SQLException {
    Path attachmentsFolder = part.resolve("attachments");
    Files.createDirectories(attachmentsFolder);
    Files.write(part.resolve("message.eml"), raw);
    Files.writeString(part.resolve("text.txt"), mail.text(), StandardCharsets.UTF_8);
    List<StoredAttachment> stored = new ArrayList<>();
    for (ParsedMail.Attachment a : mail.attachments()) {
      String fileName =
          String.format(Locale.ROOT, "%02d-%s", stored.size() + 1, FileNames.safe(a.name()));
      Path target = attachmentsFolder.resolve(fileName).normalize();
      if (!attachmentsFolder.normalize().equals(target.getParent())) {
        throw new IOException("an attachment name escapes its folder: " + fileName);
      }
      Files.write(target, a.content());
      stored.add(new StoredAttachment(
          MimeReader.clean(a.name(), 1000), fileName, a.content().length, a.type()));
    }
    String summary = Summaries.extract(mail.text(), mail.subject());
    Instant date = mail.date() != null ? mail.date() : received;
    try (Connection c = pool.getConnection()) {
      c.setAutoCommit(false);
      try {
        try (PreparedStatement st = c.prepareStatement(
            "INSERT INTO mail (mail_id, message_id, from_addr, to_addrs, subject, sent_at, summary,"
                + " summary_source, search_text, ingested_at, content_hash)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
          st.setString(1, id);
          st.setString(2, mail.messageId());
          st.setString(3, mail.from());
          st.setString(4, Json.write(mail.to()));
          st.setString(5, mail.subject());
          st.setObject(6, OffsetDateTime.ofInstant(date, ZoneOffset.UTC));
          st.setString(7, summary);
          st.setString(8, EXTRACTIVE);
          st.setString(9, searchText(mail.subject(), summary));
          st.setObject(10, OffsetDateTime.now(ZoneOffset.UTC));
          st.setString(11, contentHash(mail));
          st.executeUpdate();
        }
        try (PreparedStatement st = c.prepareStatement(
            "INSERT INTO mail_attachment (mail_id, position, name, file_name, size, type)"
                + " VALUES (?, ?, ?, ?, ?, ?)")) {
          for (int i = 0; i < stored.size(); i++) {
            StoredAttachment a = stored.get(i);
            st.setString(1, id);
            st.setInt(2, i);
            st.setString(3, a.name());
            st.setString(4, a.fileName());
            st.setLong(5, a.size());
            st.setString(6, MimeReader.clean(a.type(), 200));
            st.addBatch();
          }
          st.executeBatch();
        }
        if (uidValidity != 0 || uid != 0) seen(c, uidValidity, uid, id, null);
        Files.move(part, folder.resolve(id), StandardCopyOption.ATOMIC_MOVE);
        c.commit();
      } catch (SQLException | IOException | RuntimeException | Error e) {
        c.rollback();
        throw e;
      }
    }
  }

  private static void deleteQuietly(Path p) {
    if (!Files.exists(p)) return;
    try (Stream<Path> all = Files.walk(p)) {
      for (Path q : all.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(q);
    } catch (IOException | RuntimeException e) {
      java.util.logging.Logger.getLogger(MailStore.class.getName())
          .warning("mail: a half-kept mail's folder cannot be removed: " + p);
    }
  }

  /** SHA-256 of a mail's sender, subject and text, in hex. */
  static String contentHash(ParsedMail mail) {
    try {
      MessageDigest d = MessageDigest.getInstance("SHA-256");
      d.update((mail.from() + "\n" + mail.subject() + "\n").getBytes(StandardCharsets.UTF_8));
      d.update(mail.text().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java has SHA-256", e);
    }
  }

  private static String newId() {
    byte[] b = new byte[8];
    RANDOM.nextBytes(b);
    return HexFormat.of().formatHex(b);
  }

  static String searchText(String subject, String summary) {
    String s = (subject + "\n" + summary).toLowerCase(Locale.ROOT);
    return s.length() <= 8000 ? s : s.substring(0, 8000);
  }

  // ---- reading ----------------------------------------------------------------------------

  /** Mails whose subject or summary holds every word (case-insensitive), newest first. */
  List<Found> search(List<String> words, @Nullable Instant since, int max) throws SQLException {
    StringBuilder sql = new StringBuilder(
        "SELECT mail_id, from_addr, subject, sent_at, summary FROM mail WHERE TRUE");
    for (int i = 0; i < words.size(); i++) sql.append(" AND search_text LIKE ? ESCAPE '\\'");
    if (since != null) sql.append(" AND sent_at >= ?");
    sql.append(" ORDER BY sent_at DESC, mail_id LIMIT ?");
    try (Connection c = pool.getConnection();
        PreparedStatement st = c.prepareStatement(sql.toString())) {
      int i = 1;
      for (String w : words) st.setString(i++, "%" + likeEscaped(w.toLowerCase(Locale.ROOT)) + "%");
      if (since != null) st.setObject(i++, OffsetDateTime.ofInstant(since, ZoneOffset.UTC));
      st.setInt(i, max);
      try (ResultSet rs = st.executeQuery()) {
        List<Found> out = new ArrayList<>();
        while (rs.next()) {
          out.add(new Found(
              rs.getString(1),
              rs.getString(2),
              rs.getString(3),
              rs.getObject(4, OffsetDateTime.class).toInstant(),
              rs.getString(5)));
        }
        return out;
      }
    }
  }

  private static String likeEscaped(String s) {
    return s.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
  }

  Optional<Stored> get(String mailId) throws SQLException {
    try (Connection c = pool.getConnection()) {
      Stored found;
      try (PreparedStatement st = c.prepareStatement(
          "SELECT from_addr, to_addrs, subject, sent_at, summary, summary_source FROM mail"
              + " WHERE mail_id = ?")) {
        st.setString(1, mailId);
        try (ResultSet rs = st.executeQuery()) {
          if (!rs.next()) return Optional.empty();
          found = new Stored(
              mailId,
              rs.getString(1),
              addresses(rs.getString(2)),
              rs.getString(3),
              rs.getObject(4, OffsetDateTime.class).toInstant(),
              rs.getString(5),
              rs.getString(6),
              List.of());
        }
      }
      List<StoredAttachment> attachments = new ArrayList<>();
      try (PreparedStatement st = c.prepareStatement(
          "SELECT name, file_name, size, type FROM mail_attachment WHERE mail_id = ?"
              + " ORDER BY position")) {
        st.setString(1, mailId);
        try (ResultSet rs = st.executeQuery()) {
          while (rs.next()) {
            attachments.add(new StoredAttachment(
                rs.getString(1), rs.getString(2), rs.getLong(3), rs.getString(4)));
          }
        }
      }
      return Optional.of(new Stored(
          found.mailId(),
          found.from(),
          found.to(),
          found.subject(),
          found.date(),
          found.summary(),
          found.summarySource(),
          attachments));
    }
  }

  private static List<String> addresses(String json) throws SQLException {
    List<String> out = new ArrayList<>();
    try {
      for (var n : Json.parse(json)) out.add(n.asText());
    } catch (IOException e) {
      throw new SQLException("a mail's recipients cannot be read", e);
    }
    return out;
  }

  /** A kept mail's text, its first {@code maxChars} characters only: only those are read. */
  String text(String mailId, int maxChars) throws IOException {
    StringBuilder out = new StringBuilder(Math.min(maxChars, 1 << 16));
    char[] buf = new char[8192];
    try (Reader r = Files.newBufferedReader(
        folder.resolve(mailId).resolve("text.txt"), StandardCharsets.UTF_8)) {
      int n;
      while (out.length() < maxChars
          && (n = r.read(buf, 0, Math.min(buf.length, maxChars - out.length()))) > 0) {
        out.append(buf, 0, n);
      }
    }
    return out.toString();
  }

  /** Replaces a mail's summary with a model's; false when there is no such mail. */
  boolean setSummary(String mailId, String summary) throws SQLException {
    try (Connection c = pool.getConnection()) {
      String subject;
      try (PreparedStatement st =
          c.prepareStatement("SELECT subject FROM mail WHERE mail_id = ?")) {
        st.setString(1, mailId);
        try (ResultSet rs = st.executeQuery()) {
          if (!rs.next()) return false;
          subject = rs.getString(1);
        }
      }
      try (PreparedStatement st = c.prepareStatement(
          "UPDATE mail SET summary = ?, summary_source = ?, search_text = ? WHERE mail_id = ?")) {
        st.setString(1, summary);
        st.setString(2, MODEL);
        st.setString(3, searchText(subject, summary));
        st.setString(4, mailId);
        return st.executeUpdate() == 1;
      }
    }
  }

  /** Mails whose summary is still extractive, newest first, each with the start of its text. */
  List<Pending> pending(int limit, int textChars) throws SQLException, IOException {
    List<Pending> out = new ArrayList<>();
    try (Connection c = pool.getConnection();
        PreparedStatement st = c.prepareStatement(
            "SELECT mail_id, from_addr, subject, sent_at FROM mail WHERE summary_source = ?"
                + " ORDER BY sent_at DESC, mail_id LIMIT ?")) {
      st.setString(1, EXTRACTIVE);
      st.setInt(2, limit);
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) {
          String id = rs.getString(1);
          out.add(new Pending(
              id,
              rs.getString(2),
              rs.getString(3),
              rs.getObject(4, OffsetDateTime.class).toInstant(),
              text(id, textChars)));
        }
      }
    }
    return out;
  }

  long count() throws SQLException {
    try (Connection c = pool.getConnection();
        PreparedStatement st = c.prepareStatement("SELECT COUNT(*) FROM mail");
        ResultSet rs = st.executeQuery()) {
      return rs.next() ? rs.getLong(1) : 0;
    }
  }

  @Override
  public void close() {
    pool.dispose();
  }
}
