package dev.steward.service.undo;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.home.AtomicFiles;
import dev.steward.protocol.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The undo area, {@code data/undo/<audit_id>/}: what each mutating call replaced, and a record of
 * it. It is bounded: past the cap (1 GiB by default) the oldest calls' folders are removed first,
 * and those calls can no longer be undone.
 */
public final class UndoStore {

  public static final long DEFAULT_CAP_BYTES = 1L << 30;
  private static final Logger LOG = Logger.getLogger(UndoStore.class.getName());
  private static final String RECORD = "undo.json";

  private final Path root;
  private final long capBytes;
  private final AtomicLong total;

  public UndoStore(Path root, long capBytes) throws IOException {
    this.root = root;
    this.capBytes = capBytes;
    Files.createDirectories(root);
    this.total = new AtomicLong(size(root));
  }

  /** The folder for a call's stash, created on first use. */
  public Path folder(long auditId) throws IOException {
    return Files.createDirectories(root.resolve(Long.toString(auditId)));
  }

  public void save(long auditId, UndoRecord record) throws IOException {
    Path dir = folder(auditId);
    AtomicFiles.write(
        dir.resolve(RECORD), Json.write(record).getBytes(StandardCharsets.UTF_8), true);
    total.addAndGet(size(dir));
    enforceCap(auditId);
  }

  public Optional<UndoRecord> load(long auditId) throws IOException {
    Path file = root.resolve(Long.toString(auditId)).resolve(RECORD);
    if (!Files.exists(file)) return Optional.empty();
    JsonNode node = Json.parse(Files.readString(file, StandardCharsets.UTF_8));
    return Optional.of(Json.convert(node, UndoRecord.class));
  }

  public Path stashPath(long auditId, String name) {
    return root.resolve(Long.toString(auditId)).resolve(name);
  }

  /** Removes the oldest calls' folders until the area fits its cap again (never the newest). */
  private synchronized void enforceCap(long newest) {
    if (total.get() <= capBytes) return;
    List<Long> ids = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(root)) {
      for (Path p : ds) {
        try {
          ids.add(Long.parseLong(p.getFileName().toString()));
        } catch (NumberFormatException e) {
          // not ours
        }
      }
    } catch (IOException e) {
      LOG.log(Level.WARNING, "undo: cannot list the undo area", e);
      return;
    }
    ids.sort(null);
    for (long id : ids) {
      if (total.get() <= capBytes || id == newest) break;
      Path dir = root.resolve(Long.toString(id));
      try {
        long size = size(dir);
        dev.steward.service.util.Trees.delete(dir);
        total.addAndGet(-size);
        LOG.info("undo: expired the undo data of call " + id + " (" + size
            + " bytes) to stay under the cap");
      } catch (IOException e) {
        LOG.log(Level.WARNING, "undo: cannot expire " + dir, e);
      }
    }
  }

  static long size(Path dir) throws IOException {
    long[] sum = {0};
    if (!Files.exists(dir)) return 0;
    Files.walkFileTree(dir, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
        sum[0] += attrs.size();
        return FileVisitResult.CONTINUE;
      }
    });
    return sum[0];
  }
}
