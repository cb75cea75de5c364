package dev.steward.service.tools.code;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The command that runs a program in bubblewrap: its own namespaces (no network unless asked),
 * the system's programs and libraries read-only, an empty home with the workspace in it
 * read-write, nothing else of the disk, a cleared environment, killed with its parent. Limits:
 * CPU time, address space, file size and open files by {@code prlimit}; processes by a pids
 * cgroup when the service runs as root (root is not bound by the process rlimit), by {@code
 * prlimit --nproc} otherwise.
 */
final class Sandbox {

  static final String HOME = "/home/sandbox";
  static final String WORKSPACE = HOME + "/workspace";
  static final int PROCESSES = 64;
  static final long MEMORY_BYTES = 1L << 30;
  static final long FILE_BYTES = 64L << 20;
  static final long TMP_BYTES = 256L << 20;
  /** All of a run's memory, its processes' and what it keeps in /tmp together (as root). */
  static final long MEMORY_CGROUP_BYTES = 1536L << 20;

  private static final Path MEMORY = Path.of("/sys/fs/cgroup/memory");
  private static final Path PIDS = Path.of("/sys/fs/cgroup/pids");

  /** The program and its settings. */
  record Run(
      List<String> program,
      Path workspace,
      Map<String, String> env,
      boolean network,
      int cpuSeconds) {}

  /** The command to start, and the cgroup to remove after (when one was made). */
  record Command(List<String> argv, Optional<Path> cgroup) {}

  private Sandbox() {}

  /** Why runs cannot be sandboxed here, or empty when they can. */
  static Optional<String> missing() {
    if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux")) {
      return Optional.of("code runs need a sandbox, which Steward has only on Linux (bubblewrap)");
    }
    for (String tool : List.of("/usr/bin/bwrap", "/usr/bin/prlimit")) {
      if (!Files.isExecutable(Path.of(tool))) {
        return Optional.of("code runs need " + tool + " (apt install bubblewrap util-linux)");
      }
    }
    if (root() && !Files.isDirectory(PIDS)) {
      return Optional.of("code runs as root need a pids cgroup to limit processes");
    }
    return Optional.empty();
  }

  static boolean root() {
    return "root".equals(System.getProperty("user.name"));
  }

  static Command command(Run run) throws IOException {
    List<String> argv = new ArrayList<>();
    Optional<Path> cgroup = Optional.empty();
    if (root()) {
      String name = "steward-code-" + UUID.randomUUID();
      Path group = PIDS.resolve(name);
      Files.createDirectory(group);
      cgroup = Optional.of(group);
      Files.writeString(group.resolve("pids.max"), Integer.toString(PROCESSES));
      Path memory = MEMORY.resolve(name);
      boolean memoryLimited = false;
      if (Files.isDirectory(MEMORY)) {
        Files.createDirectory(memory);
        Files.writeString(
            memory.resolve("memory.limit_in_bytes"), Long.toString(MEMORY_CGROUP_BYTES));
        memoryLimited = true;
      }
      // Enters the cgroups before bubblewrap starts, so nothing it forks is outside the limits.
      argv.addAll(List.of(
          "/bin/sh",
          "-c",
          "echo $$ > \"$0/cgroup.procs\" && { [ \"$1\" = - ] || echo $$ > \"$1/cgroup.procs\"; }"
              + " && shift && exec \"$@\"",
          group.toString(),
          memoryLimited ? memory.toString() : "-"));
    }
    argv.addAll(List.of(
        "/usr/bin/bwrap",
        "--unshare-all",
        "--die-with-parent",
        "--new-session",
        "--ro-bind",
        "/usr",
        "/usr",
        "--ro-bind-try",
        "/bin",
        "/bin",
        "--ro-bind-try",
        "/lib",
        "/lib",
        "--ro-bind-try",
        "/lib64",
        "/lib64",
        "--ro-bind-try",
        "/etc/ld.so.cache",
        "/etc/ld.so.cache",
        "--ro-bind-try",
        "/etc/alternatives",
        "/etc/alternatives",
        "--ro-bind-try",
        "/etc/localtime",
        "/etc/localtime",
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        // Sized: an unsized tmpfs may take half the machine's memory.
        "--size",
        Long.toString(TMP_BYTES),
        "--tmpfs",
        "/tmp",
        "--size",
        Long.toString(1L << 20),
        "--tmpfs",
        "/home",
        "--bind",
        run.workspace().toString(),
        WORKSPACE,
        "--chdir",
        WORKSPACE,
        "--clearenv",
        "--setenv",
        "PATH",
        "/usr/local/bin:/usr/bin:/bin",
        "--setenv",
        "HOME",
        HOME,
        "--setenv",
        "LANG",
        "C.UTF-8",
        "--setenv",
        "PYTHONDONTWRITEBYTECODE",
        "1"));
    if (run.network()) {
      argv.addAll(List.of("--share-net", "--ro-bind-try", "/etc/resolv.conf", "/etc/resolv.conf"));
      argv.addAll(List.of("--ro-bind-try", "/etc/ssl", "/etc/ssl"));
    }
    run.env().forEach((k, v) -> argv.addAll(List.of("--setenv", k, v)));
    if (root()) argv.addAll(List.of("--unshare-user", "--uid", "65534", "--gid", "65534"));
    argv.add("--");
    argv.addAll(List.of(
        "/usr/bin/prlimit",
        "--cpu=" + run.cpuSeconds(),
        "--as=" + MEMORY_BYTES,
        "--fsize=" + FILE_BYTES,
        "--nofile=256"));
    if (!root()) argv.add("--nproc=" + (ownProcesses() + PROCESSES));
    argv.add("--");
    argv.addAll(run.program());
    return new Command(List.copyOf(argv), cgroup);
  }

  private static final java.util.concurrent.Executor RELEASING =
      java.util.concurrent.Executors.newSingleThreadExecutor(
          dev.steward.protocol.util.DaemonThreads.named("code-cgroup-release"));

  /**
   * Removes the run's cgroup once its last processes are gone — in the background: the answer
   * need not wait for the kernel to reap them.
   */
  static void release(Optional<Path> cgroup) {
    cgroup.ifPresent(group -> RELEASING.execute(() -> {
      remove(group);
      Path memory = MEMORY.resolve(group.getFileName().toString());
      if (Files.isDirectory(memory)) remove(memory);
    }));
  }

  private static void remove(Path group) {
    for (int i = 0; i < 250; i++) {
      try {
        Files.delete(group);
        return;
      } catch (IOException e) {
        try {
          Thread.sleep(20);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  /**
   * How many processes this user runs now: the process rlimit counts them all, so the limit is
   * that many and {@link #PROCESSES} more.
   */
  private static long ownProcesses() {
    try (var entries = Files.list(Path.of("/proc"))) {
      Object uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
      return entries
          .filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit))
          .filter(p -> {
            try {
              return uid.equals(Files.getAttribute(p, "unix:uid"));
            } catch (IOException | RuntimeException e) {
              return false;
            }
          })
          .count();
    } catch (IOException | RuntimeException e) {
      return 512;
    }
  }
}
