package dev.steward.service.tools.files;

import dev.steward.service.scope.PathScope;
import dev.steward.service.scope.Provenance;
import dev.steward.service.scope.ResolvedPath;
import dev.steward.service.scope.SafeFs;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * A folder tree listed on the {@link WalkPool}, in exactly the order a depth-first walk by name
 * gives (a folder's entry, then its contents), cut after {@code max} entries, and written as the
 * wire's entry objects ({@link EntryJson}) while it is walked. Links are listed, never followed.
 *
 * <p>Folders are listed in parallel by the {@link ParallelWalk}. So that a huge tree is not walked
 * for a short answer, folders reached once {@code max} entries are known are skipped; should the cut turn out to need one of them (a parallel walk does not list
 * in order), it is listed then, opened again from its root without following links.
 */
final class TreeListing {

  /**
   * What to list: the scope hides refused names; {@code maxDepth} 1 lists only the folder itself;
   * at most {@code max} entries and {@code maxBytes} bytes of them.
   */
  record Settings(
      PathScope scope, boolean hidden, int maxDepth, int max, long maxBytes, boolean readMarks) {

    /** Settings that read no marks. */
    Settings(PathScope scope, boolean hidden, int maxDepth, int max, long maxBytes) {
      this(scope, hidden, maxDepth, max, maxBytes, false);
    }
  }

  /** The most listed entries whose marks are read (~4 µs of a thread each); more count as a stranger's. */
  static final int MAX_MARKS_READ = 5_000;

  /**
   * The listed entries in walk order as a JSON array (UTF-8, as ranges of what the walk wrote), how
   * many, and, when more were left out, why: {@code max_entries} or {@code max_bytes}. With
   * {@link Settings#readMarks}, {@code strangers} says why the names listed are a stranger's
   * words, if they may be: one of them is marked as a stranger's (a download, a file written after
   * untrusted content), or there were too many to look.
   */
  record Result(
      JsonRanges json,
      int count,
      @Nullable String stoppedBecause,
      @Nullable String strangers) {
    boolean truncated() {
      return stoppedBecause != null;
    }
  }

  /** A folder's entries, and its sub-folders, each listed right after its own entry. */
  private static final class Folder {
    final Path real;
    final String text;
    final int depth;
    EntryJson.Written entries = EntryJson.Written.NONE;
    /** With marks to read: each entry's name if it is a file or a folder (marks are read on those). */
    @Nullable
    Path[] markable = NO_NAMES;

    /** Whether {@link #real} is its path's own bytes: false below a name that is not valid text. */
    final boolean exact;

    final List<Folder> subs = new ArrayList<>();
    /** {@code subs.get(k)} follows entry {@code subAfter[k]}. */
    int[] subAfter = new int[0];
    /** Which of its entries are hidden; null: worked out when it is listed. */
    final PathScope.@Nullable Children refused;

    volatile boolean listed;

    Folder(Path real, int depth, PathScope.@Nullable Children refused, boolean exact) {
      this.real = real;
      this.exact = exact;
      this.text = real.toString();
      this.depth = depth;
      this.refused = refused;
    }

    /** Listed but not entered: unreadable, or gone or replaced since its entry was seen. */
    void empty() {
      entries = EntryJson.Written.NONE;
      markable = NO_NAMES;
      subs.clear();
      listed = true;
    }
  }

  private static final @Nullable Path[] NO_NAMES = new Path[0];

  /** Each walking thread's writer, reused folder after folder. */
  private static final ThreadLocal<EntryJson> WRITERS = ThreadLocal.withInitial(EntryJson::new);

  private TreeListing() {}

  /** Lists {@code dir}; throws on the folder itself (missing, a file), skips what fails below it. */
  static Result list(ResolvedPath dir, Settings settings) throws IOException, InterruptedException {
    Folder top = new Folder(dir.real(), 1, null, true);
    fill(top, SafeFs.openDir(dir), settings, settings.max() + 1);
    Out out = new Out(settings);
    String stop = emit(top, out, dir.root(), settings);
    return new Result(out.json, out.count, stop, settings.readMarks() ? strangers(out) : null);
  }

  /**
   * Whether the names listed may be a stranger's: one of them marked so, or more than {@link
   * #MAX_MARKS_READ} of them. Only names the answer shows are looked at, each one mark read, on
   * the walk's threads when there are many (a read opens the file: ~4 µs, twice the listing's own
   * time an entry).
   */
  private static @Nullable String strangers(Out out) throws InterruptedException {
    if (out.count > MAX_MARKS_READ) {
      return "file names listed (too many to look for a stranger's among them)";
    }
    List<Path> entries = new ArrayList<>(out.count);
    for (Out.Shown shown : out.shown) {
      Folder folder = shown.folder();
      if (!folder.exact && shown.to() > shown.from()) {
        return "file names listed (in " + folder.real
            + ", a folder named in bytes that are not text)";
      }
      for (int i = shown.from(); i < shown.to(); i++) {
        Path name = folder.markable[i];
        if (name != null) entries.add(folder.real.resolve(name));
      }
    }
    Optional<Path> marked;
    if (entries.size() < PARALLEL_MARKS) {
      marked = entries.stream().filter(Provenance::marksOn).findFirst();
    } else {
      try {
        marked = WalkPool.POOL
            .submit(() -> entries.parallelStream().filter(Provenance::marksOn).findAny())
            .get();
      } catch (java.util.concurrent.ExecutionException e) {
        throw new IllegalStateException("reading the marks of a listing failed", e.getCause());
      }
    }
    return marked
        .map(entry -> "file names listed (" + entry + " is a stranger's)")
        .orElse(null);
  }

  /** Below this many, marks are read on the caller's thread: a hand-off costs more. */
  private static final int PARALLEL_MARKS = 64;

  /** Lists an opened folder and what lies below it, until {@code budget} entries are known. */
  private static void fill(
      Folder folder, SecureDirectoryStream<Path> opened, Settings settings, int budget)
      throws IOException, InterruptedException {
    Lister lister = new Lister(settings, budget);
    ForkJoinTask<Void> task = ParallelWalk.start(opened, folder, lister);
    try {
      ParallelWalk.await(task, Long.MAX_VALUE, TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      lister.stopped = true;
      throw e;
    } catch (TimeoutException e) {
      throw new IllegalStateException("a listing has no time limit of its own", e);
    }
  }

  /** The answer's array, entry after entry, until {@code max} entries or {@code maxBytes}. */
  private static final class Out {
    final int max;
    final long maxBytes;
    final JsonRanges json = new JsonRanges();
    int count;
    private long bytes;
    /** With marks to read, which entries were added, up to one past the most whose marks are read. */
    final List<Shown> shown = new ArrayList<>();

    private final boolean readMarks;

    /** A folder's entries {@code [from, to)}, added to the answer. */
    record Shown(Folder folder, int from, int to) {}

    Out(Settings settings) {
      this.max = settings.max();
      this.maxBytes = settings.maxBytes();
      this.readMarks = settings.readMarks();
    }

    /** Adds entries {@code [a, b)} of {@code folder}; answers why not all of them fit, or null. */
    @Nullable
    String add(Folder folder, int a, int b) {
      int before = count;
      String stop = add(folder.entries, a, b);
      if (readMarks && count > before && before <= MAX_MARKS_READ) {
        shown.add(new Shown(folder, a, a + count - before));
      }
      return stop;
    }

    /** Adds entries {@code [a, b)} of a folder, back to back as they were written; answers why not all of them fit, or null. */
    @Nullable
    String add(EntryJson.Written w, int a, int b) {
      int last = (int) Math.min(b, (long) a + Math.max(0, max - count));
      if (last > a) {
        long runBytes = w.to(last - 1) - w.from(a);
        if (bytes + runBytes + 1
            <= maxBytes) { // its last comma becomes the closing bracket, plus the opening one
          json.add(w.bytes(), w.from(a), w.to(last - 1));
          bytes += runBytes;
          count += last - a;
        } else {
          for (int i = a; i < last; i++) {
            int length = w.to(i) - w.from(i);
            if (bytes + length + 1 > maxBytes) return "max_bytes";
            json.add(w.bytes(), w.from(i), w.to(i));
            bytes += length;
            count++;
          }
        }
      }
      return last < b ? "max_entries" : null;
    }
  }

  /** Adds a folder's entries in walk order, each run of them up to a sub-folder at once; answers why entries were left out, or null. */
  private static @Nullable String emit(Folder folder, Out out, Path root, Settings settings)
      throws IOException, InterruptedException {
    if (!folder.listed) relist(folder, root, settings, settings.max() + 1 - out.count);
    EntryJson.Written entries = folder.entries;
    int sub = 0;
    int i = 0;
    while (i < entries.count()) {
      int end = sub < folder.subs.size()
          ? folder.subAfter[sub] + 1
          : entries.count(); // up to and with the next sub-folder's entry
      String stop = out.add(folder, i, end);
      if (stop != null) return stop;
      i = end;
      if (sub < folder.subs.size() && folder.subAfter[sub] == end - 1) {
        stop = emit(folder.subs.get(sub++), out, root, settings);
        if (stop != null) return stop;
      }
    }
    return null;
  }

  private static void relist(Folder folder, Path root, Settings settings, int budget)
      throws IOException, InterruptedException {
    try {
      fill(
          folder,
          SafeFs.openDir(new ResolvedPath(folder.real.toString(), folder.real, root)),
          settings,
          budget);
    } catch (IOException e) {
      folder.empty(); // gone or replaced since the walk saw it: nothing to list
    }
  }

  /**
   * A folder's entry by name: its bytes for the system calls, its text for the answer; ordered as
   * its bytes are. {@code exact}: the text reads back to the same bytes (valid in the platform's
   * encoding), so the order can be taken from the text, which compares far faster.
   */
  private record Named(Path path, String text, boolean exact) implements Comparable<Named> {

    /**
     * The name of a listed entry, taken from the entry's text: cheaper than asking the path for its
     * last part, which scans the whole path. A name that does not read back to its own bytes keeps
     * the bytes it has.
     */
    static Named of(Path entry) {
      String full = entry.toString();
      String text = full.substring(full.lastIndexOf('/') + 1);
      boolean exact = text.indexOf('\uFFFD') < 0;
      return new Named(
          exact ? entry.getFileSystem().getPath(text) : entry.getFileName(), text, exact);
    }

    @Override
    public int compareTo(Named other) {
      if (!exact || !other.exact) return path.compareTo(other.path);
      return compareAsUtf8(text, other.text);
    }
  }

  /**
   * The order of the two texts' UTF-8 bytes, which is code point order. That is the order of
   * UTF-16 units except where a surrogate meets a unit above it: only then is it worked out.
   */
  static int compareAsUtf8(String a, String b) {
    int n = Math.min(a.length(), b.length());
    for (int i = 0; i < n; i++) {
      char x = a.charAt(i);
      char y = b.charAt(i);
      if (x != y) {
        return Character.isSurrogate(x) || Character.isSurrogate(y)
            ? Integer.compare(a.codePointAt(i), b.codePointAt(i))
            : x - y;
      }
    }
    return a.length() - b.length();
  }

  /** Lists a folder's entries in name order; its sub-folders, within the depth, are walked next. */
  private static final class Lister implements ParallelWalk.Visitor<Folder> {
    private final Settings settings;
    private final int budget;
    private final AtomicInteger found = new AtomicInteger();
    volatile boolean stopped;

    Lister(Settings settings, int budget) {
      this.settings = settings;
      this.budget = budget;
    }

    /** Once the budget is known, further folders are skipped: listed later if the cut needs them. */
    @Override
    public boolean enter(Folder folder) {
      return !stopped && found.get() < budget;
    }

    @Override
    public void failed(Folder folder, IOException e) {
      folder.empty(); // unreadable, or vanished mid-listing: listed as empty
    }

    @Override
    public List<ParallelWalk.Sub<Folder>> visit(Folder folder, SecureDirectoryStream<Path> open)
        throws IOException {
      List<Named> names = new ArrayList<>();
      for (Path entry : open) names.add(Named.of(entry));
      names.sort(null);
      @Nullable Path[] markable = settings.readMarks() ? new Path[names.size()] : NO_NAMES;
      List<ParallelWalk.Sub<Folder>> subs = new ArrayList<>();
      int[] subAfter = new int[8];
      PathScope.Children refused =
          folder.refused != null ? folder.refused : settings.scope().children(folder.real);
      EntryJson json = WRITERS.get();
      json.folder(folder.text);
      try {
        for (Named named : names) {
          if (stopped) return List.of();
          Path name = named.path();
          String text = named.text();
          if (!settings.hidden() && text.startsWith(".")) continue;
          if (refused.denied(text)) continue;
          Optional<BasicFileAttributes> attrs = SafeFs.attributes(open, name);
          if (attrs.isEmpty()) continue; // removed while we listed
          json.entry(text, attrs.get());
          found.incrementAndGet();
          if (settings.readMarks()
              && (attrs.get().isRegularFile() || attrs.get().isDirectory())) {
            markable[json.count() - 1] = name;
          }
          if (attrs.get().isDirectory() && folder.depth < settings.maxDepth()) {
            Path subReal = folder.real.resolve(text);
            Folder sub = new Folder(
                subReal, folder.depth + 1, refused.below(subReal), folder.exact && named.exact());
            if (subs.size() == subAfter.length)
              subAfter = java.util.Arrays.copyOf(subAfter, subAfter.length * 2);
            subAfter[subs.size()] = json.count() - 1;
            folder.subs.add(sub);
            subs.add(new ParallelWalk.Sub<>(name, sub));
          }
        }
      } finally {
        folder.entries =
            json.take(); // before the sub-folders: their visits may run on this thread and reuse
        // the writer
        folder.markable = markable;
      }
      folder.subAfter = subAfter;
      folder.listed = true;
      return subs;
    }
  }
}
