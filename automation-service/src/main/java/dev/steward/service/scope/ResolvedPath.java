package dev.steward.service.scope;

import java.nio.file.Path;

/**
 * A path after the scope check: absolute, normalised, every existing symlink resolved, inside
 * {@code root}. Tools operate on exactly this path, walking to it from the root without following
 * links (see {@link SafeFs}), so what was checked is what is touched.
 */
public record ResolvedPath(String requested, Path real, Path root) {

  /** The path relative to its root; empty for the root itself. */
  public Path relative() {
    return root.relativize(real);
  }

  public boolean isRoot() {
    return real.equals(root);
  }
}
