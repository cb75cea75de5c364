package dev.steward.service.tools.calendar;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The UIDs of the events Steward made (seed 000's second axis): reading those needs no click.
 * Kept one per line in the pack's data folder, replaced whole on each change (written aside,
 * synced, then moved over), so a crash leaves the old list or the new one, never a torn one.
 */
final class OwnEvents {

  private final Path file;
  private final Set<String> uids = new LinkedHashSet<>();

  OwnEvents(Path folder) {
    this.file = folder.resolve("own-events.txt");
    try {
      if (Files.exists(file)) {
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
          if (!line.isBlank()) uids.add(line.strip());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  synchronized boolean contains(String uid) {
    return uids.contains(uid);
  }

  synchronized void add(String uid) throws IOException {
    if (!uids.add(uid)) return;
    try {
      save();
    } catch (IOException e) {
      uids.remove(uid);
      throw e;
    }
  }

  private void save() throws IOException {
    Files.createDirectories(file.getParent());
    Path aside = file.resolveSibling(file.getFileName() + ".new");
    Files.write(aside, String.join("\n", uids).concat("\n").getBytes(StandardCharsets.UTF_8));
    try (FileChannel c = FileChannel.open(aside, StandardOpenOption.WRITE)) {
      c.force(true);
    }
    Files.move(aside, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
