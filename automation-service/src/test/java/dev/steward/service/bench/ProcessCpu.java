package dev.steward.service.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * A process's CPU time so far, from Linux's {@code /proc}, in two parts: its JIT compiler threads'
 * and all its other threads'. A latency on two shared cores moves with whatever else runs; the CPU
 * a call costs the service does not, and the JIT's share says whether the code has settled.
 */
final class ProcessCpu {

  /** Linux reports thread times in USER_HZ, 100 a second on every kernel's user-space ABI. */
  static final double NS_PER_TICK = 1e9 / 100;

  private ProcessCpu() {}

  /** {other threads' ticks, JIT compiler threads' ticks}. */
  static long[] ticks(long pid) throws IOException {
    long[] out = new long[2];
    try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
      for (Path task : (Iterable<Path>) tasks::iterator) {
        String stat;
        try {
          stat = Files.readString(task.resolve("stat"));
        } catch (NoSuchFileException e) {
          continue; // the thread ended while listed
        }
        // The name sits in parentheses and may itself hold spaces and parentheses.
        int close = stat.lastIndexOf(')');
        String name = stat.substring(stat.indexOf('(') + 1, close);
        String[] fields = stat.substring(close + 2).split(" ");
        // utime and stime: fields 14 and 15 of the line, 12 and 13 after the name.
        long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        out[name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler") ? 1 : 0] += ticks;
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    return out;
  }
}
