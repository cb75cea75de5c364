package dev.steward.service.scope;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserDefinedFileAttributeView;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Atomic writes that carry a stranger's mark: the mark travels with the content, never after it. */
class SafeFsTest {

  @TempDir
  Path root;

  private ResolvedPath at(String name) throws Exception {
    Path real = root.toRealPath().resolve(name);
    return new ResolvedPath(real.toString(), real, root.toRealPath());
  }

  private static String mark(Path file) throws Exception {
    UserDefinedFileAttributeView view =
        Files.getFileAttributeView(file, UserDefinedFileAttributeView.class);
    if (!view.list().contains(Provenance.MOVED_FROM_STRANGERS)) return "";
    ByteBuffer value = ByteBuffer.allocate(view.size(Provenance.MOVED_FROM_STRANGERS));
    view.read(Provenance.MOVED_FROM_STRANGERS, value);
    return new String(value.array(), StandardCharsets.UTF_8);
  }

  @Test
  void a_marked_write_lands_marked_and_leaves_no_temporary_file() throws Exception {
    ResolvedPath note = at("note.txt");
    Files.writeString(note.real(), "the user's own");
    try (SafeFs.Dir dir = SafeFs.openParent(note)) {
      assertTrue(SafeFs.writeAtomically(
          dir,
          "a stranger's".getBytes(StandardCharsets.UTF_8),
          false,
          new SafeFs.Mark(note.real(), "written after untrusted content")));
    }
    assertEquals("a stranger's", Files.readString(note.real()));
    assertEquals("written after untrusted content", mark(note.real()));
    assertTrue(Provenance.marked(note.real()));
    try (var left = Files.list(root)) {
      assertEquals(1, left.count(), "no temporary file left");
    }
  }

  @Test
  void an_unmarked_write_lands_unmarked() throws Exception {
    ResolvedPath note = at("plain.txt");
    try (SafeFs.Dir dir = SafeFs.openParent(note)) {
      assertTrue(SafeFs.writeAtomically(dir, new byte[] {'x'}, true, null));
    }
    assertEquals("", mark(note.real()));
  }

  /** The mark is on the new content before it takes the name: a refused rename leaves the old file as it was. */
  @Test
  void a_refused_write_marks_nothing_it_did_not_write() throws Exception {
    ResolvedPath note = at("kept.txt");
    Files.writeString(note.real(), "kept");
    try (SafeFs.Dir dir = SafeFs.openParent(note)) {
      assertThrows(
          FileAlreadyExistsException.class,
          () -> SafeFs.writeAtomically(
              dir, new byte[] {'y'}, true, new SafeFs.Mark(note.real(), "a stranger's")));
    }
    assertArrayEquals("kept".getBytes(StandardCharsets.UTF_8), Files.readAllBytes(note.real()));
    assertEquals("", mark(note.real()));
    try (var left = Files.list(root)) {
      assertEquals(1, left.count(), "no temporary file left");
    }
    assertFalse(Provenance.marked(note.real()));
  }
}
