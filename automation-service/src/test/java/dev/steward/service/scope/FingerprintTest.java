package dev.steward.service.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FingerprintTest {

  @TempDir
  Path dir;

  @Test
  void a_file_left_alone_keeps_its_fingerprint() throws Exception {
    Path f = Files.writeString(dir.resolve("a.txt"), "words");
    assertEquals(Fingerprint.of(f), Fingerprint.of(f));
    Files.readString(f);
    assertEquals(Fingerprint.of(f), Fingerprint.of(f), "reading changes nothing");
  }

  @Test
  void another_file_moved_into_the_path_differs_even_with_the_same_words_and_times()
      throws Exception {
    Path f = Files.writeString(dir.resolve("a.txt"), "words");
    Path other = Files.writeString(dir.resolve("b.txt"), "words");
    Files.setLastModifiedTime(other, Files.getLastModifiedTime(f));
    String before = Fingerprint.of(f);
    Files.move(other, f, StandardCopyOption.REPLACE_EXISTING);
    assertNotEquals(before, Fingerprint.of(f));
  }

  @Test
  void a_file_written_back_to_its_size_and_time_differs() throws Exception {
    Path f = Files.writeString(dir.resolve("a.txt"), "words");
    FileTime time = Files.getLastModifiedTime(f);
    String before = Fingerprint.of(f);
    Thread.sleep(20); // past the kernel's clock tick, which stamps the change time
    Files.writeString(f, "WORDS");
    Files.setLastModifiedTime(f, time);
    assertNotEquals(before, Fingerprint.of(f));
  }

  @Test
  void a_path_that_names_nothing_is_absent_until_a_file_appears() throws Exception {
    Path f = dir.resolve("new.txt");
    assertEquals(Fingerprint.ABSENT, Fingerprint.of(f));
    assertEquals(Fingerprint.ABSENT, Fingerprint.of(dir.resolve("no/such/folder/x.txt")));
    Files.writeString(f, "");
    assertNotEquals(Fingerprint.ABSENT, Fingerprint.of(f));
  }

  @Test
  void a_folder_differs_when_an_entry_comes_or_goes_and_when_it_is_made_again() throws Exception {
    Path folder = Files.createDirectory(dir.resolve("work"));
    String before = Fingerprint.of(folder);
    Thread.sleep(20);
    Files.writeString(folder.resolve("build.log"), "x");
    String withEntry = Fingerprint.of(folder);
    assertNotEquals(before, withEntry);
    Thread.sleep(20);
    Files.delete(folder.resolve("build.log"));
    Files.delete(folder);
    Files.createDirectory(folder); // often given the inode just freed
    assertNotEquals(withEntry, Fingerprint.of(folder));
  }

  @Test
  void a_link_in_the_last_name_is_the_link_not_what_it_points_at() throws Exception {
    Path f = Files.writeString(dir.resolve("a.txt"), "words");
    Path link = Files.createSymbolicLink(dir.resolve("link"), f);
    assertNotEquals(Fingerprint.of(f), Fingerprint.of(link));
  }
}
