package dev.steward.service.tools;

import dev.steward.service.scope.PathScope;
import java.nio.file.Path;

/**
 * What a tool's undo may use: today's scope (every path is checked again: a folder the user has
 * since removed from the policy stays out of reach) and the folder where the call kept what it
 * replaced.
 */
public record UndoContext(PathScope scope, Path stash) {

  /** A name kept in the stash by the call. */
  public Path stashed(String name) {
    return stash.resolve(name);
  }
}
