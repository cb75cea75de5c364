package dev.steward.service.tools.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.service.scope.ResolvedPath;
import dev.steward.service.scope.SafeFs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one folder walk: every folder once, a folder that fails is the visitor's, a bug is nobody's to swallow. */
class ParallelWalkTest {

  @TempDir
  Path tmp;

  /** Visits every folder it is given, recording each and what failed. */
  private static class Recorder implements ParallelWalk.Visitor<Path> {
    final Set<Path> visited = ConcurrentHashMap.newKeySet();
    final Map<Path, IOException> failed = new ConcurrentHashMap<>();
    final Set<String> ghosts;

    Recorder(Set<String> ghosts) {
      this.ghosts = ghosts;
    }

    @Override
    public List<ParallelWalk.Sub<Path>> visit(Path folder, SecureDirectoryStream<Path> open)
        throws IOException {
      if (!visited.add(folder)) throw new AssertionError("visited twice: " + folder);
      List<ParallelWalk.Sub<Path>> subs = new ArrayList<>();
      for (Path entry : open) {
        Path name = entry.getFileName();
        if (SafeFs.attributes(open, name).map(a -> a.isDirectory()).orElse(false))
          subs.add(new ParallelWalk.Sub<>(name, folder.resolve(name.toString())));
      }
      // A folder that is gone by the time it is opened (removed mid-walk).
      for (String ghost : ghosts)
        subs.add(new ParallelWalk.Sub<>(Path.of(ghost), folder.resolve(ghost)));
      return subs;
    }

    @Override
    public void failed(Path folder, IOException e) {
      failed.put(folder, e);
    }
  }

  private SecureDirectoryStream<Path> open(Path dir) throws IOException {
    return SafeFs.openDir(new ResolvedPath(dir.toString(), dir, dir));
  }

  @Test
  void every_folder_is_visited_once_and_a_vanished_one_is_reported_to_the_visitor()
      throws Exception {
    for (int i = 0; i < 30; i++)
      Files.createDirectories(tmp.resolve("a" + i % 5).resolve("b" + i));
    Recorder r = new Recorder(Set.of("gone"));
    ParallelWalk.await(ParallelWalk.start(open(tmp), tmp, r), 30, TimeUnit.SECONDS);
    Set<Path> expected;
    try (Stream<Path> all = Files.walk(tmp)) {
      expected = all.filter(Files::isDirectory).collect(java.util.stream.Collectors.toSet());
    }
    assertEquals(expected, r.visited);
    assertEquals(
        expected.size(),
        r.failed.size(),
        "each folder's ghost sub-folder was reported, and the walk went on");
    assertTrue(
        r.failed.values().stream().allMatch(e -> e instanceof java.nio.file.NoSuchFileException),
        r.failed.toString());
  }

  @Test
  void a_bug_in_a_visitor_ends_the_walk_as_itself() throws Exception {
    Files.createDirectories(tmp.resolve("a/b"));
    ParallelWalk.Visitor<Path> buggy = new Recorder(Set.of()) {
      @Override
      public List<ParallelWalk.Sub<Path>> visit(Path folder, SecureDirectoryStream<Path> open)
          throws IOException {
        if (folder.endsWith("b")) throw new IllegalStateException("a bug");
        return super.visit(folder, open);
      }
    };
    IllegalStateException e = assertThrows(
        IllegalStateException.class,
        () -> ParallelWalk.await(ParallelWalk.start(open(tmp), tmp, buggy), 30, TimeUnit.SECONDS));
    assertTrue(e.getMessage().contains("a bug"), e.getMessage());
  }

  @Test
  void a_folder_not_entered_is_neither_visited_nor_failed() throws Exception {
    Files.createDirectories(tmp.resolve("skip/inside"));
    Files.createDirectories(tmp.resolve("keep/inside"));
    Recorder r = new Recorder(Set.of()) {
      @Override
      public boolean enter(Path folder) {
        return !folder.endsWith("skip");
      }
    };
    ParallelWalk.await(ParallelWalk.start(open(tmp), tmp, r), 30, TimeUnit.SECONDS);
    assertEquals(Set.of(tmp, tmp.resolve("keep"), tmp.resolve("keep/inside")), r.visited);
    assertTrue(r.failed.isEmpty());
  }
}
