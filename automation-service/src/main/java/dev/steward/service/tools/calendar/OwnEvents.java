package dev.steward.service.tools.calendar;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The events Steward made (seed 000's second axis), each with the title Steward last wrote:
 * showing those needs no click. An event on a calendar others can write may have been changed by
 * someone else since — its title is then a stranger's words, and it counts as the user's (asked
 * for, and tainting once shown). Kept one per line ({@code uid TAB title's SHA-256}) in the pack's
 * data folder, replaced whole on each change (written aside, synced, then moved over), so a crash
 * leaves the old list or the new one, never a torn one. A line without a title counts as the
 * user's event.
 */
final class OwnEvents {

  private final Path file;
  /** Each UID Steward made, with the hash of the title it last wrote (null: not known). */
  private final Map<String, @Nullable String> titles = new LinkedHashMap<>();

  OwnEvents(Path folder) {
    this.file = folder.resolve("own-events.txt");
    try {
      if (Files.exists(file)) {
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
          if (line.isBlank()) continue;
          int tab = line.indexOf('\t');
          if (tab < 0) titles.put(line.strip(), null);
          else
            titles.put(line.substring(0, tab).strip(), line.substring(tab + 1).strip());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  /** Whether Steward made the event, whatever became of it since. */
  synchronized boolean made(String uid) {
    return titles.containsKey(uid);
  }

  /** Whether Steward made the event and its title is still the one Steward wrote. */
  synchronized boolean madeAsIs(String uid, String title) {
    String kept = titles.get(uid);
    return kept != null && kept.equals(hash(title));
  }

  /** Remembers that Steward wrote {@code title} on the event; kept only once it is on disk. */
  synchronized void remember(String uid, String title) throws IOException {
    String hash = hash(title);
    boolean had = titles.containsKey(uid);
    String before = titles.put(uid, hash);
    if (had && Objects.equals(before, hash)) return;
    try {
      save();
    } catch (IOException e) {
      if (had) titles.put(uid, before);
      else titles.remove(uid);
      throw e;
    }
  }

  private static String hash(String title) {
    return dev.steward.protocol.json.CanonicalJson.sha256Hex(
        title.getBytes(StandardCharsets.UTF_8));
  }

  private void save() throws IOException {
    Files.createDirectories(file.getParent());
    Path aside = file.resolveSibling(file.getFileName() + ".new");
    StringBuilder text = new StringBuilder();
    titles.forEach((uid, hash) -> {
      text.append(uid);
      if (hash != null) text.append('\t').append(hash);
      text.append('\n');
    });
    Files.write(aside, text.toString().getBytes(StandardCharsets.UTF_8));
    try (FileChannel c = FileChannel.open(aside, StandardOpenOption.WRITE)) {
      c.force(true);
    }
    Files.move(aside, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
