package dev.steward.service.undo;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.home.AtomicFiles;
import dev.steward.protocol.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The undo area, {@code data/undo/<audit_id>/}: what each mutating call replaced, and a record of
 * it. It is bounded: past the cap (1 GiB by default) the oldest calls' folders are removed first,
 * and those calls can no longer be undone.
 */
public final class UndoStore {

  public static final long DEFAULT_CAP_BYTES = 1L << 30;
  private static final Logger LOG = Logger.getLogger(UndoStore.class.getName());
  private static final String RECORD = "undo.json";

  /**
   * How long a call's undo data is kept before the cap may push it out without a click: a call that
   * would push out younger data asks first ({@link #pushesOutSince}).
   */
  public static final java.time.Duration KEPT_AT_LEAST = java.time.Duration.ofDays(7);

  /** A call's folder: its size as last measured, and since when it is kept. */
  private record Kept(long bytes, java.time.Instant since) {}

  private final Path root;
  private final long capBytes;
  private final Map<Long, Kept> sizes = new ConcurrentHashMap<>();

  private final AtomicLong total = new AtomicLong();

  /** Room held for destructive calls running now, whose undo data is not yet counted as kept. */
  private long held;

  /** Calls being undone now: their folders are not removed by the cap, nor undone twice at once. */
  private final java.util.Set<Long> undoing = new java.util.HashSet<>();

  private final java.time.Clock clock;

  public UndoStore(Path root, long capBytes) throws IOException {
    this(root, capBytes, java.time.Clock.systemUTC());
  }

  /** @param clock the gate's: what counts as this week's is judged by one clock */
  public UndoStore(Path root, long capBytes, java.time.Clock clock) throws IOException {
    if (capBytes <= 0 || capBytes > Long.MAX_VALUE / 4)
      throw new IllegalArgumentException("an undo area's cap is a positive size: " + capBytes);
    this.root = root;
    this.capBytes = capBytes;
    this.clock = clock;
    Files.createDirectories(root);
    for (long id : ids()) measure(id);
  }

  /** The folder for a call's stash, created on first use. */
  public Path folder(long auditId) throws IOException {
    return Files.createDirectories(root.resolve(Long.toString(auditId)));
  }

  /**
   * Saves a call's record; answers the calls whose undo data was removed to keep the area under
   * its cap (oldest first), which the call's own audit row names.
   */
  public List<Long> save(long auditId, UndoRecord record) throws IOException {
    Path dir = folder(auditId);
    Kept before = sizes.get(auditId);
    AtomicFiles.write(
        dir.resolve(RECORD), Json.write(record).getBytes(StandardCharsets.UTF_8), true);
    // The folder's time is when its call was kept, by the gate's clock, which a restart reads
    // again: a record saved again (an undo, a calendar change) must not make an old row look new.
    try {
      Files.setLastModifiedTime(
          dir,
          java.nio.file.attribute.FileTime.from(before == null ? clock.instant() : before.since()));
    } catch (IOException e) {
      LOG.log(Level.WARNING, "undo: cannot keep the time of " + dir, e);
    }
    measure(auditId);
    return enforceCap(auditId);
  }

  /**
   * Counts a call's folder that holds no record (the call failed after it put something there): it
   * is kept — a move or a delete that failed half-way may have put the user's only copy of a file
   * there — and counts against the cap like the others, which in time removes it.
   */
  public void countUnsaved(long auditId) {
    Path dir = root.resolve(Long.toString(auditId));
    if (!Files.isDirectory(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) return;
    try {
      measure(auditId);
    } catch (IOException e) {
      LOG.log(Level.WARNING, "undo: cannot measure " + dir, e);
    }
  }

  /** Measures a call's folder again (a folder saved again replaces its size, never adds to it). */
  private synchronized void measure(long id) throws IOException {
    Path dir = root.resolve(Long.toString(id));
    long now = size(dir);
    Kept before = sizes.get(id);
    java.time.Instant since = before != null
        ? before.since()
        : Files.getLastModifiedTime(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)
            .toInstant();
    sizes.put(id, new Kept(now, since));
    total.addAndGet(now - (before == null ? 0 : before.bytes()));
  }

  private synchronized void forget(long id) {
    Kept before = sizes.remove(id);
    if (before != null) total.addAndGet(-before.bytes());
  }

  /**
   * Whether keeping {@code bytes} more would push out the undo data of a call kept since after
   * {@code since}: the oldest go first, as {@link #enforceCap} takes them.
   */
  public synchronized boolean pushesOutSince(long bytes, java.time.Instant since) {
    long over = saturated(saturated(total.get(), held), bytes) - capBytes;
    if (over <= 0) return false;
    List<Long> ids = new ArrayList<>(sizes.keySet());
    ids.sort(null);
    for (long id : ids) {
      Kept k = sizes.get(id);
      if (k == null || undoing.contains(id)) continue;
      if (k.since().isAfter(since)) return true;
      over -= k.bytes();
      if (over <= 0) return false;
    }
    return false;
  }

  /**
   * Holds room for {@code bytes} of a call's undo data until it is kept, unless they would push
   * out a call's kept since after {@code since} ({@link #pushesOutSince}, which counts the room
   * held): two calls let run at once under a grant are judged one after the other, never both
   * against the room as it was.
   */
  public synchronized Optional<Held> holdUnlessPushesOutSince(long bytes, java.time.Instant since) {
    if (pushesOutSince(bytes, since)) return Optional.empty();
    return Optional.of(hold(bytes));
  }

  /** Holds room for a call's undo data whatever it pushes out (the user approved it). */
  public synchronized Held hold(long bytes) {
    // Past the cap every amount is alike to the judgement, and a sum of them cannot overflow.
    long counted = Math.min(bytes, capBytes + 1);
    held += counted;
    return new Held(counted);
  }

  /**
   * Keeps a call's folder while its undo runs (a save of another call would otherwise remove it,
   * the oldest, half-way through putting it back); empty when its undo already runs.
   */
  public synchronized Optional<Undoing> undoing(long auditId) {
    return undoing.add(auditId) ? Optional.of(new Undoing(auditId)) : Optional.empty();
  }

  /** A call's undo, running; its folder is the cap's again once closed. */
  public final class Undoing implements AutoCloseable {
    private final long auditId;

    private Undoing(long auditId) {
      this.auditId = auditId;
    }

    @Override
    public void close() {
      synchronized (UndoStore.this) {
        undoing.remove(auditId);
      }
    }
  }

  /** Room held for one call; given back once its undo data is kept (or the call ends without). */
  public final class Held {
    private final long bytes;
    private boolean given;

    private Held(long bytes) {
      this.bytes = bytes;
    }

    public void giveBack() {
      synchronized (UndoStore.this) {
        if (given) return;
        given = true;
        held -= bytes;
      }
    }
  }

  private static long saturated(long a, long b) {
    long s = a + b;
    return s < 0 ? Long.MAX_VALUE / 2 : s;
  }

  private List<Long> ids() throws IOException {
    List<Long> ids = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(root)) {
      for (Path p : ds) {
        try {
          ids.add(Long.parseLong(p.getFileName().toString()));
        } catch (NumberFormatException e) {
          // not ours
        }
      }
    }
    ids.sort(null);
    return ids;
  }

  public Optional<UndoRecord> load(long auditId) throws IOException {
    Path file = root.resolve(Long.toString(auditId)).resolve(RECORD);
    if (!Files.exists(file)) return Optional.empty();
    JsonNode node = Json.parse(Files.readString(file, StandardCharsets.UTF_8));
    return Optional.of(Json.convert(node, UndoRecord.class));
  }

  public Path stashPath(long auditId, String name) {
    return root.resolve(Long.toString(auditId)).resolve(name);
  }

  /**
   * Removes the oldest calls' folders until the area fits its cap again (never the newest, never a
   * call's that is still running: only folders measured after their call); answers whose.
   */
  private synchronized List<Long> enforceCap(long newest) {
    if (total.get() <= capBytes) return List.of();
    List<Long> ids = new ArrayList<>(sizes.keySet());
    ids.sort(null);
    List<Long> expired = new ArrayList<>();
    // Past a folder being undone, the calls after it were judged with it gone: none of this week's
    // is taken in its place (the area stays over its cap until a later save).
    boolean passedOne = false;
    java.time.Instant recent = clock.instant().minus(KEPT_AT_LEAST);
    for (long id : ids) {
      if (total.get() <= capBytes || id == newest) break;
      if (undoing.contains(id)) {
        passedOne = true;
        continue;
      }
      Kept kept = sizes.get(id);
      if (passedOne && kept != null && kept.since().isAfter(recent)) break;
      Path dir = root.resolve(Long.toString(id));
      try {
        dev.steward.service.util.Trees.delete(dir);
        forget(id);
        expired.add(id);
        LOG.info("undo: expired the undo data of call " + id + " to stay under the cap");
      } catch (IOException e) {
        LOG.log(Level.WARNING, "undo: cannot expire " + dir, e);
      }
    }
    return expired;
  }

  static long size(Path dir) throws IOException {
    long[] sum = {0};
    if (!Files.exists(dir)) return 0;
    Files.walkFileTree(dir, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
        sum[0] += attrs.size();
        return FileVisitResult.CONTINUE;
      }
    });
    return sum[0];
  }
}
