package dev.steward.service.tools.files;

import dev.steward.service.scope.PathScope;
import dev.steward.service.scope.ResolvedPath;
import dev.steward.service.scope.SafeFs;
import dev.steward.service.tools.WireValue;
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
 * gives (a folder's entry, then its contents), cut after {@code max} entries. Links are listed,
 * never followed.
 *
 * <p>Folders are listed in parallel, each opened relative to its parent's descriptor, which stays
 * open until its sub-folders are done (open descriptors grow with the depth, not the width). So
 * that a huge tree is not walked for a short answer, folders reached once {@code max} entries are
 * known are skipped; should the cut turn out to need one of them (a parallel walk does not list
 * in order), it is listed then, opened again from its root without following links.
 */
final class TreeListing {

  /**
   * One listed entry, kept compact (a big listing holds tens of thousands): its path is built from
   * its folder's as text, without a {@code Path} per entry, and its time is kept as numbers until
   * it is written.
   */
  record Entry(String path, String name, String type, long size, long modifiedSeconds, int modifiedNanos, long pathBound) {
    static Entry of(String parent, String name, BasicFileAttributes a) {
      String path = parent.endsWith("/") ? parent + name : parent + "/" + name;
      java.time.Instant modified = a.lastModifiedTime().toInstant();
      return new Entry(path, name, Entries.type(a), Entries.size(a), modified.getEpochSecond(), modified.getNano(), WireValue.stringBound(path));
    }
  }

  /** What to list: the scope hides refused names; {@code maxDepth} 1 lists only the folder itself. */
  record Settings(PathScope scope, boolean hidden, int maxDepth, int max) {}

  /** The listed entries in walk order, and whether more were left out. */
  record Result(List<Entry> entries, boolean truncated) {}

  /** A folder's contents in order: entries, each sub-folder's entry followed by its own Folder. */
  private static final class Folder {
    final Path real;
    final String text;
    final int depth;
    final List<Object> items = new ArrayList<>();
    volatile boolean listed;

    Folder(Path real, int depth) {
      this.real = real;
      this.text = real.toString();
      this.depth = depth;
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

  private TreeListing() {}

  /** Lists {@code dir}; throws on the folder itself (missing, a file), skips what fails below it. */
  static Result list(ResolvedPath dir, Settings settings) throws IOException, InterruptedException {
    Folder top = new Folder(dir.real(), 1);
    int found = fill(top, SafeFs.openDir(dir), settings, settings.max() + 1);
    List<Entry> out = new ArrayList<>(Math.min(settings.max(), found) + 1);
    boolean truncated = emit(top, out, dir.root(), settings);
    return new Result(out, truncated);
  }

  /** Lists an opened folder and what lies below it, until {@code budget} entries are known; answers how many were. */
  private static int fill(Folder folder, SecureDirectoryStream<Path> opened, Settings settings, int budget)
      throws IOException, InterruptedException {
    Walk walk = new Walk(settings, budget);
    ForkJoinTask<Void> task = WalkPool.POOL.submit(new FolderTask(walk, null, opened, folder));
    try {
      task.get();
      return walk.found.get();
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

  /** Adds a folder's entries in walk order; answers whether an entry was left out. */
  private static boolean emit(Folder folder, List<Entry> out, Path root, Settings settings) throws IOException, InterruptedException {
    if (!folder.listed) relist(folder, root, settings, settings.max() + 1 - out.size());
    for (Object item : folder.items) {
      if (item instanceof Entry) {
        if (out.size() >= settings.max()) return true;
        out.add((Entry) item);
      } else if (emit((Folder) item, out, root, settings)) {
        return true;
      }
    }
    return false;
  }

  private static void relist(Folder folder, Path root, Settings settings, int budget) throws IOException, InterruptedException {
    try {
      fill(folder, SafeFs.openDir(new ResolvedPath(folder.real.toString(), folder.real, root)), settings, budget);
    } catch (IOException e) {
      folder.items.clear(); // gone or replaced since the walk saw it: nothing to list
      folder.listed = true;
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
          folder.listed = true; // unreadable, or replaced meanwhile: listed but not entered
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
      folder.items.clear(); // vanished mid-listing: listed but not entered
      folder.listed = true;
    }

    private void list(SecureDirectoryStream<Path> open) throws IOException {
      Settings s = walk.settings;
      List<Path> names = new ArrayList<>();
      for (Path entry : open) names.add(entry.getFileName());
      names.sort(null);
      List<FolderTask> subs = new ArrayList<>();
      PathScope.Children refused = s.scope().children(folder.real);
      for (Path name : names) {
        if (walk.stopped) return;
        String text = name.toString();
        if (!s.hidden() && text.startsWith(".")) continue;
        if (refused.denied(text)) continue;
        Optional<BasicFileAttributes> attrs = SafeFs.attributes(open, name);
        if (attrs.isEmpty()) continue; // removed while we listed
        folder.items.add(Entry.of(folder.text, text, attrs.get()));
        walk.found.incrementAndGet();
        if (attrs.get().isDirectory() && folder.depth < s.maxDepth()) {
          Folder sub = new Folder(folder.real.resolve(text), folder.depth + 1);
          folder.items.add(sub);
          subs.add(new FolderTask(walk, open, null, sub));
        }
      }
      folder.listed = true;
      invokeAll(subs);
    }
  }
}
