package dev.steward.service.tools.files;

import dev.steward.service.scope.PathScope;
import dev.steward.service.scope.ResolvedPath;
import dev.steward.service.scope.SafeFs;
import java.io.IOException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.RecursiveAction;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * A folder tree listed on the {@link WalkPool}, in exactly the order a depth-first walk by name
 * gives (a folder's entry, then its contents), cut after {@code max} entries, and written as the
 * wire's entry objects ({@link EntryJson}) while it is walked. Links are listed, never followed.
 *
 * <p>Folders are listed in parallel, each opened relative to its parent's descriptor, which stays
 * open until its sub-folders are done (open descriptors grow with the depth, not the width). So
 * that a huge tree is not walked for a short answer, folders reached once {@code max} entries are
 * known are skipped; should the cut turn out to need one of them (a parallel walk does not list
 * in order), it is listed then, opened again from its root without following links.
 */
final class TreeListing {

  /** What to list: the scope hides refused names; {@code maxDepth} 1 lists only the folder itself. */
  record Settings(PathScope scope, boolean hidden, int maxDepth, int max) {}

  /** The listed entries in walk order as a JSON array (UTF-8), how many, and whether more were left out. */
  record Result(byte[] json, int count, boolean truncated) {}

  /** A folder's entries, and its sub-folders, each listed right after its own entry. */
  private static final class Folder {
    final Path real;
    final String text;
    final int depth;
    EntryJson.Written entries = EntryJson.Written.NONE;
    final List<Folder> subs = new ArrayList<>();
    /** {@code subs.get(k)} follows entry {@code subAfter[k]}. */
    int[] subAfter = new int[0];
    /** Which of its entries are hidden; null: worked out when it is listed. */
    final PathScope.@Nullable Children refused;
    volatile boolean listed;

    Folder(Path real, int depth, PathScope.@Nullable Children refused) {
      this.real = real;
      this.text = real.toString();
      this.depth = depth;
      this.refused = refused;
    }

    /** Listed but not entered: unreadable, or gone or replaced since its entry was seen. */
    void empty() {
      entries = EntryJson.Written.NONE;
      subs.clear();
      listed = true;
    }
  }

  /** One walk's settings and shared state. */
  private static final class Walk {
    final Settings settings;
    final int budget;
    final AtomicInteger found = new AtomicInteger();
    volatile boolean stopped;

    Walk(Settings settings, int budget) {
      this.settings = settings;
      this.budget = budget;
    }
  }

  /** Each walking thread's writer, reused folder after folder. */
  private static final ThreadLocal<EntryJson> WRITERS = ThreadLocal.withInitial(EntryJson::new);

  private TreeListing() {}

  /** Lists {@code dir}; throws on the folder itself (missing, a file), skips what fails below it. */
  static Result list(ResolvedPath dir, Settings settings) throws IOException, InterruptedException {
    Folder top = new Folder(dir.real(), 1, null);
    fill(top, SafeFs.openDir(dir), settings, settings.max() + 1);
    Out out = new Out(settings.max(), bytes(top));
    boolean truncated = emit(top, out, dir.root(), settings);
    return new Result(out.finish(), out.count, truncated);
  }

  /** The bytes of every entry listed under {@code folder} and a comma after each: what the answer holds at most. */
  private static long bytes(Folder folder) {
    long n = folder.entries.bytes().length + folder.entries.count();
    for (Folder sub : folder.subs) n += bytes(sub);
    return n;
  }

  /** Lists an opened folder and what lies below it, until {@code budget} entries are known. */
  private static void fill(Folder folder, SecureDirectoryStream<Path> opened, Settings settings, int budget)
      throws IOException, InterruptedException {
    Walk walk = new Walk(settings, budget);
    ForkJoinTask<Void> task = WalkPool.POOL.submit(new FolderTask(walk, null, opened, folder));
    try {
      task.get();
    } catch (InterruptedException e) {
      walk.stopped = true;
      throw e;
    } catch (ExecutionException e) {
      if (e.getCause() instanceof java.io.UncheckedIOException) throw ((java.io.UncheckedIOException) e.getCause()).getCause();
      if (e.getCause() instanceof IOException) throw (IOException) e.getCause();
      if (e.getCause() instanceof RuntimeException) throw (RuntimeException) e.getCause();
      throw new IOException(e.getCause());
    }
  }

  /** The answer's array, entry after entry, until {@code max}. */
  private static final class Out {
    final int max;
    byte[] bytes;
    int size = 1;
    int count;

    /** {@code bound}: the entries and a comma after each; the array's brackets take the place of the last comma and one more. */
    Out(int max, long bound) {
      this.max = max;
      this.bytes = new byte[(int) Math.min(Integer.MAX_VALUE - 16, Math.max(2, bound + 1))];
      bytes[0] = '[';
    }

    void add(EntryJson.Written w, int i) {
      int start = w.start(i);
      int length = w.ends()[i] - start;
      int needed = size + (count > 0 ? 1 : 0) + length + 1; // the comma before, the entry, room for ']'
      if (needed > bytes.length) bytes = java.util.Arrays.copyOf(bytes, Math.max(bytes.length * 2, needed));
      if (count > 0) bytes[size++] = ',';
      System.arraycopy(w.bytes(), start, bytes, size, length);
      size += length;
      count++;
    }

    /** Closes the array: {@link #add} always leaves room for the ']'. */
    byte[] finish() {
      bytes[size++] = ']';
      return size == bytes.length ? bytes : java.util.Arrays.copyOf(bytes, size);
    }
  }

  /** Adds a folder's entries in walk order; answers whether an entry was left out. */
  private static boolean emit(Folder folder, Out out, Path root, Settings settings) throws IOException, InterruptedException {
    if (!folder.listed) relist(folder, root, settings, settings.max() + 1 - out.count);
    EntryJson.Written entries = folder.entries;
    int sub = 0;
    for (int i = 0; i < entries.count(); i++) {
      if (out.count >= out.max) return true;
      out.add(entries, i);
      while (sub < folder.subs.size() && folder.subAfter[sub] == i) {
        if (emit(folder.subs.get(sub++), out, root, settings)) return true;
      }
    }
    return false;
  }

  private static void relist(Folder folder, Path root, Settings settings, int budget) throws IOException, InterruptedException {
    try {
      fill(folder, SafeFs.openDir(new ResolvedPath(folder.real.toString(), folder.real, root)), settings, budget);
    } catch (IOException e) {
      folder.empty(); // gone or replaced since the walk saw it: nothing to list
    }
  }

  /** Lists one folder, then its sub-folders as tasks of their own. */
  private static final class FolderTask extends RecursiveAction {
    private final Walk walk;
    private final @Nullable SecureDirectoryStream<Path> parent;
    private final @Nullable SecureDirectoryStream<Path> opened;
    private final Folder folder;

    FolderTask(Walk walk, @Nullable SecureDirectoryStream<Path> parent, @Nullable SecureDirectoryStream<Path> opened, Folder folder) {
      this.walk = walk;
      this.parent = parent;
      this.opened = opened;
      this.folder = folder;
    }

    @Override
    protected void compute() {
      SecureDirectoryStream<Path> dir = opened;
      if (dir == null) {
        if (walk.stopped || walk.found.get() >= walk.budget) return; // skipped: listed later if the cut needs it
        try {
          dir = parent.newDirectoryStream(folder.real.getFileName(), LinkOption.NOFOLLOW_LINKS);
        } catch (IOException | RuntimeException e) {
          folder.empty();
          return;
        }
      }
      try (SecureDirectoryStream<Path> open = dir) {
        list(open);
      } catch (java.nio.file.DirectoryIteratorException e) {
        fail(e.getCause());
      } catch (IOException e) {
        fail(e);
      }
    }

    private void fail(IOException e) {
      if (opened != null) throw new java.io.UncheckedIOException(e); // the top folder itself failed
      folder.empty(); // vanished mid-listing
    }

    private void list(SecureDirectoryStream<Path> open) throws IOException {
      Settings s = walk.settings;
      List<Path> names = new ArrayList<>();
      for (Path entry : open) names.add(entry.getFileName());
      names.sort(null);
      List<FolderTask> subTasks = new ArrayList<>();
      int[] subAfter = new int[8];
      PathScope.Children refused = folder.refused != null ? folder.refused : s.scope().children(folder.real);
      EntryJson json = WRITERS.get();
      json.folder(folder.text);
      try {
        for (Path name : names) {
          if (walk.stopped) return;
          String text = name.toString();
          if (!s.hidden() && text.startsWith(".")) continue;
          if (refused.denied(text)) continue;
          Optional<BasicFileAttributes> attrs = SafeFs.attributes(open, name);
          if (attrs.isEmpty()) continue; // removed while we listed
          json.entry(text, attrs.get());
          walk.found.incrementAndGet();
          if (attrs.get().isDirectory() && folder.depth < s.maxDepth()) {
            Path subReal = folder.real.resolve(text);
            Folder sub = new Folder(subReal, folder.depth + 1, refused.below(subReal));
            if (subTasks.size() == subAfter.length) subAfter = java.util.Arrays.copyOf(subAfter, subAfter.length * 2);
            subAfter[subTasks.size()] = json.count() - 1;
            folder.subs.add(sub);
            subTasks.add(new FolderTask(walk, open, null, sub));
          }
        }
      } finally {
        folder.entries = json.take(); // before the sub-folders: their tasks may run on this thread and reuse the writer
      }
      folder.subAfter = subAfter;
      folder.listed = true;
      invokeAll(subTasks);
    }
  }
}
