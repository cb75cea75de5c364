package dev.steward.service.tools.mail;

import jakarta.mail.FetchProfile;
import jakarta.mail.Folder;
import jakarta.mail.FolderClosedException;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Store;
import jakarta.mail.StoreClosedException;
import jakarta.mail.UIDFolder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.angus.mail.imap.IMAPFolder;
import org.eclipse.angus.mail.imap.IMAPStore;
import org.jspecify.annotations.Nullable;

/**
 * Reads new mail from the mailbox's INBOX in the background and keeps each message once: it is
 * known by (UIDVALIDITY, UID) and by its Message-ID with its content, in the store, so a restart or
 * a rebuilt mailbox never brings it in twice. A message is marked seen before it is read, and
 * whatever reading or keeping it does (an exception, running out of memory) it stays seen with
 * the reason: one bad message never stops the intake of the mail after it. It waits with IMAP IDLE where the server offers it (told of
 * new mail at once), else checks every {@code pollEvery}. The mailbox is opened read-only: the
 * pack never changes what the user's mailbox holds.
 */
final class Ingester implements AutoCloseable {

  /** What the ingestion is doing, for the window. */
  record Status(
      String state, @Nullable Instant lastCheck, @Nullable String problem) {}

  private static final Logger LOG = Logger.getLogger(Ingester.class.getName());
  /**
   * A message larger than this is remembered, not read: mail the assistant needs is not 25 MB, and
   * a message, its attachments and its forwarded copy must fit the service's heap together.
   */
  static final int MAX_BYTES = 25 << 20;

  static final String TOO_LARGE =
      "larger than " + (MAX_BYTES >> 20) + " MB (the most the mail pack reads): not read";
  /** The problem of a message while it is read: it stays if reading it brought the service down. */
  static final String PROCESSING = "being read when the service stopped: not read again";
  /** IDLE is renewed this often (servers end it after 30 minutes; a dead link shows by then). */
  private static final int BATCH = 50;

  private static final int PREFETCH_BYTES = 256 << 10;
  private static final int PER_OPEN = 200;
  static final Duration IDLE_RENEW = Duration.ofMinutes(4);

  private final Supplier<MailConfig.Configured> config;
  private final Mailbox.StoreSource store;
  private final Duration pollEvery;
  private final Clock clock;
  private final Object lock = new Object();
  private final ScheduledExecutorService renewer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "mail-idle-renew");
    t.setDaemon(true);
    return t;
  });
  private volatile boolean running;
  /** Counts the wake-ups: a session began before the latest one is out of date. */
  private final AtomicLong generation = new AtomicLong();

  private volatile @Nullable Link connected;
  private volatile @Nullable IMAPFolder idling;
  private volatile Status status = new Status("stopped", null, null);
  private @Nullable Thread thread;

  Ingester(
      Supplier<MailConfig.Configured> config,
      Mailbox.StoreSource store,
      Duration pollEvery,
      Clock clock) {
    this.config = config;
    this.store = store;
    this.pollEvery = pollEvery;
    this.clock = clock;
  }

  synchronized void start() {
    if (thread != null) return;
    running = true;
    Thread t = new Thread(this::loop, "mail-ingest");
    t.setDaemon(true);
    thread = t;
    t.start();
    renewer.scheduleWithFixedDelay(
        this::renewIdle, IDLE_RENEW.toSeconds(), IDLE_RENEW.toSeconds(), TimeUnit.SECONDS);
  }

  Status status() {
    return status;
  }

  /**
   * Checks again now, with the configuration as it is now (the policy or the password changed, or
   * the window asks); a connection made with an older configuration is closed.
   */
  void wake() {
    long now;
    synchronized (lock) {
      now = generation.incrementAndGet();
      lock.notifyAll();
    }
    // Only a link made before this wake-up: one made after it already has what is configured now.
    Link l = connected;
    if (l != null && l.generation() < now) closeQuietly(l.store());
  }

  /** The open connection and the wake-up count it began under. */
  private record Link(long generation, Store store) {}

  private void loop() {
    while (running) {
      long gen = generation.get();
      Optional<MailConfig> c = config.get().get();
      if (c.isEmpty()) {
        status = new Status("not set up", null, config.get().unavailable().orElse(null));
        pause(pollEvery, gen);
        continue;
      }
      MailConfig cfg = c.get();
      try {
        session(cfg, gen);
      } catch (Error e) {
        // Not a connection problem (a message is read inside its own guard): keep the thread.
        if (!running) return;
        status = new Status("failing", status.lastCheck(), "checking the mailbox failed: " + e);
        LOG.log(Level.SEVERE, "mail: checking the mailbox failed", e);
        pause(pollEvery, gen);
      } catch (MessagingException | IOException | SQLException | RuntimeException e) {
        if (!running) return;
        // Closed on purpose: connect again with what is configured now.
        if (generation.get() != gen) continue;
        String problem = ConnectionProblems.describe(e, cfg.imap(), cfg.password());
        status = new Status("failing", status.lastCheck(), problem);
        LOG.log(Level.WARNING, "mail: checking the mailbox failed: {0}", problem);
        pause(pollEvery, gen);
      }
    }
  }

  /** One connection: check, then wait (IDLE or a pause) and check again until woken. */
  private void session(MailConfig cfg, long gen)
      throws MessagingException, IOException, SQLException {
    Store s = MailSessions.imap(cfg.imap(), IDLE_RENEW.plusMinutes(1)).getStore();
    connected = new Link(gen, s);
    try {
      s.connect(cfg.imap().host(), cfg.imap().port(), cfg.username(), cfg.password());
      if (generation.get() != gen || !running) return;
      IMAPFolder inbox = (IMAPFolder) s.getFolder("INBOX");
      inbox.open(Folder.READ_ONLY);
      boolean idle = s instanceof IMAPStore imap && imap.hasCapability("IDLE");
      while (running && generation.get() == gen) {
        while (check(inbox) && running) {
          // The folder keeps every message it fetched whole: opened anew, it lets them go.
          inbox.close(false);
          inbox.open(Folder.READ_ONLY);
        }
        status = new Status(idle ? "waiting (IDLE)" : "polling", clock.instant(), null);
        if (idle) {
          idling = inbox;
          try {
            inbox.idle(true);
          } finally {
            idling = null;
          }
        } else {
          pause(pollEvery, gen);
          if (!inbox.isOpen()) return;
        }
      }
    } finally {
      connected = null;
      closeQuietly(s);
    }
  }

  /** Ends a running IDLE so that the loop checks and idles anew on a link known to be alive. */
  private void renewIdle() {
    IMAPFolder f = idling;
    if (f == null) return;
    try {
      // A command on the folder from another thread ends its IDLE first (DONE), then runs.
      f.doCommand(p -> {
        p.simpleCommand("NOOP", null);
        return null;
      });
    } catch (MessagingException | RuntimeException e) {
      Link l = connected;
      if (l != null) closeQuietly(l.store());
    }
  }

  /**
   * Keeps the messages of the INBOX not seen before, at most {@value #PER_OPEN}; answers whether
   * more are waiting.
   */
  boolean check(IMAPFolder inbox) throws MessagingException, IOException, SQLException {
    MailStore kept = store.get();
    long validity = inbox.getUIDValidity();
    long last = kept.lastUid(validity);
    Message[] messages = inbox.getMessagesByUID(last + 1, UIDFolder.MAXUID);
    FetchProfile profile = new FetchProfile();
    profile.add(UIDFolder.FetchProfileItem.UID);
    profile.add(FetchProfile.Item.SIZE);
    profile.add(IMAPFolder.FetchProfileItem.INTERNALDATE);
    inbox.fetch(messages, profile);
    List<Message> fresh = new ArrayList<>();
    for (Message m : messages) {
      long uid = inbox.getUID(m);
      // "n:*" names the last message even when its UID is below n.
      if (uid > last && !kept.seen(validity, uid)) fresh.add(m);
      if (fresh.size() == PER_OPEN) break;
    }
    for (int from = 0; from < fresh.size(); from += BATCH) {
      List<Message> batch = fresh.subList(from, Math.min(fresh.size(), from + BATCH));
      // Small messages come in one FETCH per batch: one round trip each costs far more.
      Message[] small =
          batch.stream().filter(m -> size(m) <= PREFETCH_BYTES).toArray(Message[]::new);
      FetchProfile whole = new FetchProfile();
      whole.add(IMAPFolder.FetchProfileItem.MESSAGE);
      inbox.fetch(small, whole);
      for (Message m : batch) {
        if (!running) return false;
        keep(kept, validity, inbox.getUID(m), m);
      }
    }
    return fresh.size() == PER_OPEN;
  }

  private static int size(Message m) {
    try {
      return m.getSize();
    } catch (MessagingException e) {
      return Integer.MAX_VALUE;
    }
  }

  private void keep(MailStore kept, long validity, long uid, Message m)
      throws MessagingException, IOException, SQLException {
    if (m.getSize() > MAX_BYTES) {
      kept.remember(validity, uid, null, TOO_LARGE);
      LOG.warning("mail: message " + uid + " is " + TOO_LARGE);
      return;
    }
    byte[] raw;
    try {
      RawBytes out = new RawBytes(Math.max(m.getSize(), 1024));
      m.writeTo(out);
      raw = out.bytes();
    } catch (FolderClosedException | StoreClosedException e) {
      throw e;
    } catch (TooLarge e) {
      kept.remember(validity, uid, null, TOO_LARGE);
      LOG.warning("mail: message " + uid + " is " + TOO_LARGE);
      return;
    } catch (MessagingException | IOException | RuntimeException | Error e) {
      kept.remember(validity, uid, null, "the server did not give it: " + e);
      LOG.warning("mail: message " + uid + " cannot be fetched: " + e);
      return;
    }
    Instant received =
        m.getReceivedDate() != null ? m.getReceivedDate().toInstant() : clock.instant();
    ingest(kept, validity, uid, raw, received);
  }

  /**
   * Keeps one message as it came. One that cannot be read or kept, whatever the failure, is
   * remembered with the reason, and logged; it is marked seen before it is read, so one that
   * brings the service down is not read again at the next start.
   */
  static Optional<String> ingest(
      MailStore kept, long validity, long uid, byte[] raw, Instant received) throws SQLException {
    if (raw.length > MAX_BYTES) {
      kept.remember(validity, uid, null, TOO_LARGE);
      LOG.warning("mail: message " + uid + " is " + TOO_LARGE);
      return Optional.empty();
    }
    kept.remember(validity, uid, null, PROCESSING);
    try {
      ParsedMail parsed = MimeReader.parse(raw);
      // The same message again (a rebuilt mailbox, a new UIDVALIDITY) is known by its Message-ID,
      // but a Message-ID is the sender's to choose: a stranger who sends a known one first would
      // suppress the real mail. So the content must match too (sender, subject and text, hashed):
      // a copy of the real message matches, a stranger's different message does not; the UID
      // alone cannot tell copies apart once the mailbox is rebuilt.
      Optional<String> same = kept.same(parsed);
      if (same.isPresent()) {
        kept.remember(validity, uid, same.get(), null);
        return Optional.empty();
      }
      return Optional.of(kept.add(validity, uid, parsed, raw, received));
    } catch (MessagingException | IOException | SQLException | RuntimeException e) {
      kept.remember(validity, uid, null, "cannot be read or kept: " + e);
      LOG.warning("mail: message " + uid + " cannot be read or kept: " + e);
      return Optional.empty();
    } catch (Error e) {
      // Out of memory, a stack too deep: this message only; the intake goes on with the next.
      kept.remember(validity, uid, null, "reading it failed: " + e);
      LOG.log(Level.SEVERE, "mail: message " + uid + " broke the reading", e);
      return Optional.empty();
    }
  }

  /** A message's bytes, at most {@link #MAX_BYTES}, not copied when its size was told right. */
  private static final class RawBytes extends ByteArrayOutputStream {

    RawBytes(int size) {
      super(Math.min(size, MAX_BYTES));
    }

    @Override
    public synchronized void write(int b) {
      if (count >= MAX_BYTES) throw new TooLarge();
      super.write(b);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
      if ((long) count + len > MAX_BYTES) throw new TooLarge();
      super.write(b, off, len);
    }

    synchronized byte[] bytes() {
      return count == buf.length ? buf : toByteArray();
    }
  }

  /** The server sent more bytes than {@link #MAX_BYTES}, whatever size it gave. */
  private static final class TooLarge extends RuntimeException {
    private static final long serialVersionUID = 1L;

    TooLarge() {
      super(TOO_LARGE, null, false, false);
    }
  }

  /** Waits {@code d}, or until a wake-up after {@code gen}, or the end. */
  private void pause(Duration d, long gen) {
    synchronized (lock) {
      long end = System.nanoTime() + d.toNanos();
      while (running && generation.get() == gen) {
        long left = end - System.nanoTime();
        if (left <= 0) return;
        try {
          TimeUnit.NANOSECONDS.timedWait(lock, left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  private static void closeQuietly(Store s) {
    try {
      s.close();
    } catch (MessagingException | RuntimeException e) {
      // closing a link that is already gone
    }
  }

  @Override
  public void close() {
    Thread t;
    synchronized (this) {
      running = false;
      t = thread;
      thread = null;
    }
    renewer.shutdownNow();
    wake();
    if (t != null) {
      try {
        t.join(5000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    status = new Status("stopped", status.lastCheck(), null);
  }
}
