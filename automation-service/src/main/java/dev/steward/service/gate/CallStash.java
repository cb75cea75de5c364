package dev.steward.service.gate;

import dev.steward.service.tools.UndoStash;
import dev.steward.service.undo.UndoRecord;
import dev.steward.service.undo.UndoStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One call's place in the undo area, which remembers what its saving did to other calls: undo
 * data removed to keep the area under its cap is the service's act on the user's safety net, and
 * the call's own completion row says so.
 */
final class CallStash implements UndoStash {

  private final UndoStore store;
  private final long auditId;
  private final List<Long> expired = new ArrayList<>();
  private boolean saved;
  /** Whether the call was given its folder: only then can it have left something there. */
  private boolean given;

  CallStash(UndoStore store, long auditId) {
    this.store = store;
    this.auditId = auditId;
  }

  @Override
  public synchronized Path folder() throws IOException {
    given = true;
    return store.folder(auditId);
  }

  @Override
  public synchronized void save(UndoRecord record) throws IOException {
    expired.addAll(store.save(auditId, record));
    saved = true;
  }

  /**
   * After the call: a folder whose record was never saved (the call failed after putting something
   * there) is counted; answers what the completion row adds to its summary, empty when nothing
   * else was removed.
   */
  synchronized String settle() {
    // Not asked of a call that had no folder: a look for a folder that is not there costs a read
    // a tenth of its time.
    if (given && !saved) store.countUnsaved(auditId);
    if (expired.isEmpty()) return "";
    return "; to keep the undo area under its size, the undo data of "
        + (expired.size() == 1 ? "row " : expired.size() + " earlier rows, ")
        + joined(expired)
        + (expired.size() == 1 ? ", was" : ", were")
        + " removed";
  }

  private static String joined(List<Long> ids) {
    List<Long> shown = ids.size() > 20 ? ids.subList(ids.size() - 20, ids.size()) : ids;
    StringBuilder s = new StringBuilder(ids.size() > 20 ? "the newest " : "");
    for (int i = 0; i < shown.size(); i++) s.append(i == 0 ? "" : " ").append(shown.get(i));
    return s.toString();
  }
}
