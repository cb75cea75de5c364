package dev.steward.service.tools;

import dev.steward.service.undo.UndoRecord;
import java.io.IOException;
import java.nio.file.Path;

/** Where a mutating call keeps what it replaces, and records how to put it back. */
public interface UndoStash {

  /** This call's folder in the undo area (created on first use). */
  Path folder() throws IOException;

  void save(UndoRecord record) throws IOException;

  /** For contexts in which nothing may change (preflight checks). */
  static UndoStash none() {
    return new UndoStash() {
      @Override
      public Path folder() throws IOException {
        throw new IOException("no undo area in a check");
      }

      @Override
      public void save(UndoRecord record) throws IOException {
        throw new IOException("no undo area in a check");
      }
    };
  }
}
