package dev.steward.service.tools.files;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The one parallel folder walk, shared by searches and listings; what is done in each folder is
 * the {@link Visitor}'s. Each folder is a task on the {@link WalkPool}, opened relative to its
 * parent's descriptor without following links; the parent stays open until its sub-folders are
 * done, so open descriptors grow with the depth being walked, not with a folder's width.
 *
 * <p>Failures are told apart: a sub-folder that cannot be opened or read (unreadable, or gone or
 * replaced mid-walk) is the visitor's to note and the walk goes on; the top folder's own failure
 * ends the walk as an {@link IOException}; anything else is a bug and ends it as itself.
 */
final class ParallelWalk {

  /**
   * What a walk does in a folder. {@code F} is the visitor's own record of a folder.
   */
  interface Visitor<F> {

    /** Whether to open a sub-folder at all, asked just before it would be opened. */
    default boolean enter(F folder) {
      return true;
    }

    /**
     * Reads the opened folder (its entries, its files through {@code open}) and answers the
     * sub-folders to walk next, by their names in {@code open}.
     */
    List<Sub<F>> visit(F folder, SecureDirectoryStream<Path> open) throws IOException;

    /** A sub-folder could not be opened or read; the rest of the walk goes on. */
    void failed(F folder, IOException e);
  }

  /** A sub-folder to walk: its name in the folder being visited, and the visitor's record of it. */
  record Sub<F>(Path name, F folder) {}

  private ParallelWalk() {}

  /** Starts walking the opened folder {@code top}, which the walk closes. */
  static <F> ForkJoinTask<Void> start(
      SecureDirectoryStream<Path> top, F folder, Visitor<F> visitor) {
    return WalkPool.POOL.submit(new WalkTask<>(visitor, null, null, top, folder));
  }

  /**
   * Waits for a walk: the top folder's own failure comes back as an {@link IOException}, a bug in a
   * visitor as itself.
   */
  static void await(ForkJoinTask<Void> walk, long timeout, TimeUnit unit)
      throws IOException, InterruptedException, TimeoutException {
    try {
      walk.get(timeout, unit);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof UncheckedIOException u) throw u.getCause();
      if (cause instanceof RuntimeException r) throw r;
      if (cause instanceof Error err) throw err;
      throw new IllegalStateException("a folder walk failed", cause);
    }
  }
}
