package dev.steward.service.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileStampTest {

  @TempDir
  Path dir;

  @Test
  void a_file_left_alone_keeps_its_fingerprint() throws Exception {
    Path f = Files.writeString(dir.resolve("a.txt"), "words");
    assertEquals(FileStamp.of(f, Access.WRITE), FileStamp.of(f, Access.WRITE));
    Files.readString(f);
    assertEquals(
        FileStamp.of(f, Access.WRITE), FileStamp.of(f, Access.WRITE), "reading changes nothing");
  }

  @Test
  void another_file_moved_into_the_path_differs_even_with_the_same_words_and_times()
      throws Exception {
    Path f = Files.writeString(dir.resolve("a.txt"), "words");
    Path other = Files.writeString(dir.resolve("b.txt"), "words");
    Files.setLastModifiedTime(other, Files.getLastModifiedTime(f));
    String before = FileStamp.of(f, Access.WRITE);
    Files.move(other, f, StandardCopyOption.REPLACE_EXISTING);
    assertNotEquals(before, FileStamp.of(f, Access.WRITE));
  }

  @Test
  void a_file_written_back_to_its_size_and_time_differs() throws Exception {
    Path f = Files.writeString(dir.resolve("a.txt"), "words");
    FileTime time = Files.getLastModifiedTime(f);
    String before = FileStamp.of(f, Access.WRITE);
    Thread.sleep(20); // past the kernel's clock tick, which stamps the change time
    Files.writeString(f, "WORDS");
    Files.setLastModifiedTime(f, time);
    assertNotEquals(before, FileStamp.of(f, Access.WRITE));
  }

  @Test
  void a_path_that_names_nothing_is_absent_until_a_file_appears() throws Exception {
    Path f = dir.resolve("new.txt");
    assertEquals(FileStamp.ABSENT, FileStamp.of(f, Access.WRITE));
    assertEquals(FileStamp.ABSENT, FileStamp.of(dir.resolve("no/such/folder/x.txt"), Access.WRITE));
    Files.writeString(f, "");
    assertNotEquals(FileStamp.ABSENT, FileStamp.of(f, Access.WRITE));
  }

  @Test
  void a_folder_taken_away_is_stamped_with_everything_in_it() throws Exception {
    Path folder = Files.createDirectories(dir.resolve("proj/sub"));
    Files.writeString(folder.resolve("a.txt"), "a");
    Path proj = dir.resolve("proj");
    String before = FileStamp.of(proj, Access.REMOVE);
    assertEquals(before, FileStamp.of(proj, Access.REMOVE));
    // A file moved deep into it, where the folder's own entries do not change.
    Path precious = Files.writeString(dir.resolve("precious.txt"), "keep");
    Files.move(precious, folder.resolve("precious.txt"));
    assertNotEquals(before, FileStamp.of(proj, Access.REMOVE));
  }

  @Test
  void a_change_says_how_the_path_changed() throws Exception {
    Path f = Files.writeString(dir.resolve("a.txt"), "words");
    String approved = FileStamp.of(f, Access.WRITE);
    assertEquals(null, FileStamp.change(approved, FileStamp.of(f, Access.WRITE)));
    Thread.sleep(20);
    Files.writeString(f, "other words");
    assertEquals("written", FileStamp.change(approved, FileStamp.of(f, Access.WRITE)));
    Path other = Files.writeString(dir.resolve("b.txt"), "words");
    Files.move(other, f, StandardCopyOption.REPLACE_EXISTING);
    assertEquals("replaced", FileStamp.change(approved, FileStamp.of(f, Access.WRITE)));
    String read = FileStamp.of(f, Access.READ);
    Files.delete(f);
    assertEquals("gone", FileStamp.change(read, FileStamp.of(f, Access.READ)));
    assertEquals(
        null,
        FileStamp.change(approved, FileStamp.of(f, Access.WRITE)),
        "a write may make the file again");
    Files.writeString(f, "new");
    assertEquals("made", FileStamp.change(FileStamp.ABSENT, FileStamp.of(f, Access.WRITE)));
    assertEquals("made", FileStamp.change(FileStamp.MISSING, FileStamp.of(f, Access.READ)));
    Path folder = Files.createDirectories(dir.resolve("proj/sub"));
    String tree = FileStamp.of(dir.resolve("proj"), Access.REMOVE);
    Files.writeString(folder.resolve("new.txt"), "n");
    assertEquals(
        "changed_inside", FileStamp.change(tree, FileStamp.of(dir.resolve("proj"), Access.REMOVE)));
    assertEquals(
        "replaced",
        FileStamp.change(FileStamp.FOLDER, FileStamp.of(f, Access.WRITE)),
        "a file where a folder was");
  }

  @Test
  void a_folder_made_where_a_file_was_is_a_replacement_even_on_the_files_inode() throws Exception {
    Path f = Files.writeString(dir.resolve("c.txt"), "words");
    String read = FileStamp.of(f, Access.READ);
    Files.delete(f);
    // A file system may give the freed inode to the next thing made: the type tells them apart.
    Files.createDirectory(f);
    assertEquals("replaced", FileStamp.change(read, FileStamp.of(f, Access.READ)));
  }

  @Test
  void a_folder_read_is_the_same_folder_while_its_entries_change_but_not_when_made_again()
      throws Exception {
    Path folder = Files.createDirectory(dir.resolve("work"));
    String before = FileStamp.of(folder, Access.READ);
    Files.writeString(folder.resolve("build.log"), "x");
    assertEquals(before, FileStamp.of(folder, Access.READ));
    Files.delete(folder.resolve("build.log"));
    Path elsewhere = Files.createDirectory(dir.resolve("elsewhere"));
    Files.delete(folder);
    Files.move(elsewhere, folder);
    assertNotEquals(before, FileStamp.of(folder, Access.READ));
  }

  @Test
  void a_folder_written_is_any_folder_and_matches_what_was_approved() throws Exception {
    Path folder = dir.resolve("made");
    String approved = FileStamp.of(folder, Access.WRITE);
    assertEquals(FileStamp.ABSENT, approved);
    Files.createDirectory(folder);
    assertEquals(FileStamp.FOLDER, FileStamp.of(folder, Access.WRITE));
    assertTrue(FileStamp.matches(approved, FileStamp.of(folder, Access.WRITE)));
    Files.delete(folder);
    Files.writeString(folder, "a file where a folder was to be");
    assertFalse(FileStamp.matches(approved, FileStamp.of(folder, Access.WRITE)));
  }

  @Test
  void nothing_there_now_matches_only_where_the_call_writes() throws Exception {
    Path f = Files.writeString(dir.resolve("gone.txt"), "x");
    String written = FileStamp.of(f, Access.WRITE);
    String taken = FileStamp.of(f, Access.REMOVE);
    Files.delete(f);
    assertTrue(FileStamp.matches(written, FileStamp.of(f, Access.WRITE)), "a new file is made");
    assertEquals(FileStamp.MISSING, FileStamp.of(f, Access.REMOVE));
    assertFalse(FileStamp.matches(taken, FileStamp.of(f, Access.REMOVE)));
  }

  @Test
  void a_folder_taken_away_is_stamped_without_following_links_or_crossing_into_another_device()
      throws Exception {
    Path proj = Files.createDirectories(dir.resolve("proj"));
    Path outside = Files.createDirectories(dir.resolve("outside"));
    Files.createSymbolicLink(proj.resolve("link"), outside);
    String before = FileStamp.of(proj, Access.REMOVE);
    Files.writeString(outside.resolve("x.txt"), "x");
    assertEquals(before, FileStamp.of(proj, Access.REMOVE), "a link is an entry, not its target");
  }

  @Test
  void a_name_below_a_file_names_nothing() throws Exception {
    Path f = Files.writeString(dir.resolve("a.txt"), "x");
    assertEquals(FileStamp.ABSENT, FileStamp.of(f.resolve("b.txt"), Access.WRITE));
    assertEquals(FileStamp.MISSING, FileStamp.of(f.resolve("b.txt"), Access.REMOVE));
  }

  @Test
  void a_path_that_cannot_be_read_matches_nothing_not_even_itself() throws Exception {
    // Deeper than PATH_MAX: stat by path fails with "file name too long".
    Path deep = dir.resolve(String.join("/", java.util.Collections.nCopies(20, "d".repeat(250))));
    String once = FileStamp.of(deep.resolve("x"), Access.WRITE);
    assertNotEquals(FileStamp.ABSENT, once);
    assertTrue(FileStamp.unreadable(once));
    assertFalse(FileStamp.matches(once, FileStamp.of(deep.resolve("x"), Access.WRITE)));
  }

  @Test
  void a_link_in_the_last_name_is_the_link_not_what_it_points_at() throws Exception {
    Path f = Files.writeString(dir.resolve("a.txt"), "words");
    Path link = Files.createSymbolicLink(dir.resolve("link"), f);
    assertNotEquals(FileStamp.of(f, Access.WRITE), FileStamp.of(link, Access.WRITE));
  }
}
