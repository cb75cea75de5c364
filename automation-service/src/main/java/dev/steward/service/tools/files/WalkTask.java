package dev.steward.service.tools.files;

import dev.steward.service.tools.files.ParallelWalk.Sub;
import dev.steward.service.tools.files.ParallelWalk.Visitor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.RecursiveAction;
import org.jspecify.annotations.Nullable;

/**
 * One folder of a {@link ParallelWalk}: opened, visited, and its sub-folders walked as tasks of
 * their own.
 *
 * <p>The service starts with {@code -XX:CompileCommand=dontinline} for {@link #compute} (the
 * launcher and the packaged {@code steward-service}; {@code JitOptionsTest} holds them to this
 * class): otherwise C2 compiles the whole walk three times over — into {@code ForkJoinTask.doExec},
 * into {@code RecursiveAction.exec} and on its own — at a user's first big listing or search,
 * ~0.4 s of a core on the calls right after it (docs/decisions/0029, amendment).
 */
final class WalkTask<F> extends RecursiveAction {
  private final Visitor<F> visitor;
  private final @Nullable SecureDirectoryStream<Path> parent;
  private final @Nullable Path name;
  private final @Nullable SecureDirectoryStream<Path> opened;
  private final F folder;

  /** Either {@code opened} (the top) or {@code parent} and {@code name} (a sub-folder) are given. */
  WalkTask(
      Visitor<F> visitor,
      @Nullable SecureDirectoryStream<Path> parent,
      @Nullable Path name,
      @Nullable SecureDirectoryStream<Path> opened,
      F folder) {
    this.visitor = visitor;
    this.parent = parent;
    this.name = name;
    this.opened = opened;
    this.folder = folder;
  }

  @Override
  protected void compute() {
    boolean top = opened != null;
    SecureDirectoryStream<Path> dir = opened;
    if (dir == null) {
      if (!visitor.enter(folder)) return;
      try {
        dir = Objects.requireNonNull(parent)
            .newDirectoryStream(Objects.requireNonNull(name), LinkOption.NOFOLLOW_LINKS);
      } catch (IOException e) {
        visitor.failed(folder, e);
        return;
      }
    }
    try (SecureDirectoryStream<Path> open = dir) {
      List<Sub<F>> subs = visitor.visit(folder, open);
      List<WalkTask<F>> tasks = new ArrayList<>(subs.size());
      for (Sub<F> s : subs) tasks.add(new WalkTask<>(visitor, open, s.name(), null, s.folder()));
      invokeAll(tasks);
    } catch (DirectoryIteratorException e) {
      IOException cause = e.getCause();
      failed(top, cause != null ? cause : new IOException(e));
    } catch (IOException e) {
      failed(top, e);
    }
  }

  private void failed(boolean top, IOException e) {
    if (top) throw new UncheckedIOException(e);
    visitor.failed(folder, e);
  }
}
