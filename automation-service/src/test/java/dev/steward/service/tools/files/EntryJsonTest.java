package dev.steward.service.tools.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Entries written by hand are byte for byte what the protocol's mapper writes for the same objects. */
class EntryJsonTest {

  private static final String[] NAMES = {
    "plain.txt",
    "Main.java",
    "with \"quotes\"",
    "back\\slash",
    "tab\there",
    "new\nline",
    "\u0001\u001f controls",
    "del\u007f",
    "café",
    "日本語.txt",
    "emoji 😀",
    "replaced \uFFFD",
    " spaced ",
    "-",
    "a".repeat(255)
  };
  private static final String[] FOLDERS = {
    "/", "/home/ann", "/home/ann/", "/tmp/\"odd\" \\ folder", "/data/naïve"
  };

  /** Sizes and times at the edges: zero, digit boundaries, before 1970, and beyond the year 9999. */
  private static final long[] SIZES = {0, 9, 10, 99, 100, 123_456_789, Long.MAX_VALUE};

  private static final Instant[] TIMES = {
    Instant.EPOCH,
    Instant.ofEpochSecond(1_700_000_000L),
    Instant.ofEpochSecond(1_700_000_000L, 120_000_000),
    Instant.ofEpochSecond(1_700_000_000L, 123_456_789),
    Instant.ofEpochSecond(-1, 1),
    Instant.parse("+10000-01-01T00:00:00Z")
  };

  private record Attrs(String type, long size, Instant modified) implements BasicFileAttributes {
    @Override
    public FileTime lastModifiedTime() {
      return FileTime.from(modified);
    }

    @Override
    public FileTime lastAccessTime() {
      return lastModifiedTime();
    }

    @Override
    public FileTime creationTime() {
      return lastModifiedTime();
    }

    @Override
    public boolean isRegularFile() {
      return type.equals("file");
    }

    @Override
    public boolean isDirectory() {
      return type.equals("directory");
    }

    @Override
    public boolean isSymbolicLink() {
      return type.equals("symlink");
    }

    @Override
    public boolean isOther() {
      return false;
    }

    @Override
    public Object fileKey() {
      return null;
    }
  }

  private static String reference(String folder, String name, Attrs a) {
    ObjectNode e = Json.object();
    e.put("path", (folder.endsWith("/") ? folder : folder + "/") + name);
    e.put("name", name);
    e.put("type", Entries.type(a));
    e.put("size", Entries.size(a));
    e.put("modified", a.modified().toString());
    return Json.write(e);
  }

  @Test
  void every_entry_is_written_as_the_mapper_writes_it() {
    EntryJson json = new EntryJson();
    Random random = new Random(11);
    String[] types = {"file", "directory", "symlink"};
    for (String folder : FOLDERS) {
      json.folder(folder);
      List<String> expected = new ArrayList<>();
      for (String name : NAMES) {
        Attrs a = new Attrs(
            types[random.nextInt(3)],
            SIZES[random.nextInt(SIZES.length)],
            TIMES[random.nextInt(TIMES.length)]);
        json.entry(name, a);
        expected.add(reference(folder, name, a));
      }
      EntryJson.Written written = json.take();
      assertEquals(expected.size(), written.count());
      for (int i = 0; i < written.count(); i++) {
        assertEquals(expected.get(i) + ",", text(written, i), "entry " + i + " in " + folder);
      }
    }
  }

  @Test
  void every_size_and_time_at_its_edges() {
    EntryJson json = new EntryJson();
    json.folder("/f");
    List<String> expected = new ArrayList<>();
    for (long size : SIZES) {
      for (Instant time : TIMES) {
        Attrs a = new Attrs("file", size, time);
        json.entry("x", a);
        expected.add(reference("/f", "x", a));
      }
    }
    assertEquals(String.join(",", expected) + ",", text(json.take()));
  }

  /** Bigger than a slab and than what the writer writes on after (1 MB); what was taken before it is left as it was. */
  @Test
  void a_folder_bigger_than_a_slab_is_kept_whole_and_taken_folders_are_never_written_over() {
    EntryJson json = new EntryJson();
    Attrs a = new Attrs("file", 1, Instant.EPOCH);
    json.folder("/before");
    json.entry("x", a);
    EntryJson.Written before = json.take();
    json.folder("/big");
    StringBuilder expected = new StringBuilder();
    for (int i = 0; i < 12_000; i++) {
      Attrs b = new Attrs("file", i, Instant.ofEpochSecond(i, i));
      json.entry("file-" + i + ".txt", b);
      expected.append(reference("/big", "file-" + i + ".txt", b)).append(',');
    }
    EntryJson.Written big = json.take();
    assertEquals(12_000, big.count());
    assertTrue(big.bytes().length > 1024 * 1024);
    assertEquals(expected.toString(), text(big));
    json.folder("/next");
    assertEquals(0, json.take().count());
    List<EntryJson.Written> after = new ArrayList<>();
    for (int i = 0; i < 2_000; i++) { // a few slabs' worth, each folder taken at once
      json.folder("/after/" + i);
      json.entry("x", a);
      after.add(json.take());
    }
    assertEquals(reference("/before", "x", a) + ",", text(before));
    assertEquals(expected.toString(), text(big));
    for (int i = 0; i < after.size(); i++)
      assertEquals(reference("/after/" + i, "x", a) + ",", text(after.get(i)));
    assertTrue(
        after.get(0).bytes() != after.get(after.size() - 1).bytes(),
        "the folders after filled more than one slab");
  }

  private static String text(EntryJson.Written w, int i) {
    return new String(w.bytes(), w.from(i), w.to(i) - w.from(i), StandardCharsets.UTF_8);
  }

  private static String text(EntryJson.Written w) {
    return w.count() == 0
        ? ""
        : new String(w.bytes(), w.from(0), w.to(w.count() - 1) - w.from(0), StandardCharsets.UTF_8);
  }
}
