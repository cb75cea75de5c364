package dev.steward.service.scope;

import java.nio.file.Path;

/**
 * A path after the scope check: absolute, normalised, every existing symlink resolved, inside
 * {@code root}. Tools operate on exactly this path, walking to it from the root without following
 * links (see {@link SafeFs}), so what was checked is what is touched. {@code runsLater}: for a
 * path that is changed, the place whose files run as programs later that it lies in — as asked, at
 * a link followed, or in the end ({@link PathScope#resolve}) — or null. {@code throughLink}: a
 * symlink was followed on the way, so the path as asked names another place than it reaches.
 */
public record ResolvedPath(
    String requested,
    Path real,
    Path root,
    @org.jspecify.annotations.Nullable String runsLater,
    boolean throughLink) {

  /** A path a tool reaches only to read, or that lies nowhere whose files run later. */
  public ResolvedPath(String requested, Path real, Path root) {
    this(requested, real, root, null, false);
  }

  public ResolvedPath(
      String requested, Path real, Path root, @org.jspecify.annotations.Nullable String runsLater) {
    this(requested, real, root, runsLater, false);
  }

  /** The path relative to its root; empty for the root itself. */
  public Path relative() {
    return root.relativize(real);
  }

  public boolean isRoot() {
    return real.equals(root);
  }
}
