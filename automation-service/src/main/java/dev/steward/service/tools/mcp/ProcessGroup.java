package dev.steward.service.tools.mcp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A server and everything it starts, as one process group that ends together. A launcher such as
 * {@code npx} runs the real server as its child: when the launcher crashes, the server is
 * orphaned, no longer a descendant of anything the service started, and would run on beside the
 * server started again in its place. {@code setsid} makes the started process the leader of a
 * group of its own (it is not one already, so {@code setsid} execs in place: the pid is the
 * same), and its descendants stay in that group however they are re-parented.
 */
final class ProcessGroup {

  /** Where there is none (not Linux), a server's processes are ended as its descendants only. */
  private static final @Nullable Path SETSID = findSetsid();

  private ProcessGroup() {}

  private static @Nullable Path findSetsid() {
    for (String dir : new String[] {"/usr/bin", "/bin"}) {
      Path p = Path.of(dir, "setsid");
      if (Files.isExecutable(p) && Files.isDirectory(Path.of("/proc/self"))) return p;
    }
    return null;
  }

  /** The command, started as the leader of a process group of its own. */
  static List<String> lead(List<String> command) {
    Path setsid = SETSID;
    if (setsid == null) return command;
    List<String> out = new ArrayList<>(command.size() + 2);
    out.add(setsid.toString());
    out.add("--");
    out.addAll(command);
    return out;
  }

  /** Kills what is left of the group {@code leader} led: its children, orphaned or not. */
  static void end(long leader) {
    if (SETSID == null) return;
    for (ProcessHandle h : members(leader)) h.destroyForcibly();
  }

  /** The processes in the group {@code leader} leads (read from {@code /proc}). */
  static List<ProcessHandle> members(long leader) {
    List<ProcessHandle> out = new ArrayList<>();
    ProcessHandle.allProcesses().forEach(h -> {
      if (groupOf(h.pid()) == leader) out.add(h);
    });
    return out;
  }

  /** The process group of {@code pid}, or -1 when it is gone or cannot be read. */
  static long groupOf(long pid) {
    try {
      String stat =
          Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.UTF_8);
      // pid (comm) state ppid pgrp …: the name may hold spaces and parentheses, so from the last
      // ')'.
      String[] rest = stat.substring(stat.lastIndexOf(')') + 2).split(" ", 4);
      return Long.parseLong(rest[2]);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }
}
