package dev.steward.service.tools.code;

import dev.steward.service.util.Privilege;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Bubblewrap sandboxes for code runs: their own namespaces (no network unless asked), the system's
 * programs and libraries read-only, an empty home with the workspace in it read-write, nothing else
 * of the disk, a cleared environment, killed with their parent. Limits: CPU time, address space,
 * file size and open files as resource limits the sandbox's shell sets before it becomes the
 * program; processes by a pids cgroup when the service runs as root (root is not bound by the
 * process limit), by the process limit otherwise.
 *
 * <p>A sandbox is {@linkplain #prepare started ahead} of its run: its namespaces, mounts and
 * cgroups are made while it waits, so a run pays for its program only. What runs comes in files
 * of a folder of its own, bound read-only at {@value #RUN}: never in a command line that {@code
 * ps} shows.
 */
final class Sandbox {

  static final String HOME = "/home/sandbox";
  static final String WORKSPACE = HOME + "/workspace";
  static final String RUN = "/run/steward";
  static final int PROCESSES = 64;
  static final long TMP_BYTES = 256L << 20;

  /** The run's /dev/shm (Python's multiprocessing keeps its semaphores there). */
  static final long SHM_BYTES = 16L << 20;

  /** Beyond a run's own memory and its /tmp, what its cgroup allows (as root). */
  static final long CGROUP_HEADROOM_BYTES = 256L << 20;

  private static final Path MEMORY = Path.of("/sys/fs/cgroup/memory");
  private static final Path PIDS = Path.of("/sys/fs/cgroup/pids");
  /** What the waiting sandbox runs: the first line of its input says go, then the run's script. */
  private static final String WAIT = "IFS= read -r go && . " + RUN + "/run.sh";

  /**
   * What a sandbox is made for: the workspace as it was found (its real path and its file key, so
   * a folder replaced since is never the one bound) and whether runs may use the network.
   */
  record Setup(
      Path workspace, Object workspaceKey, boolean network, long memoryBytes, long fileBytes) {}

  /** A program: its language ({@code python} or {@code bash}), source, arguments and variables. */
  record Program(
      String language, String source, List<String> args, Map<String, String> env, int cpuSeconds) {}

  private Sandbox() {}

  /** Why runs cannot be sandboxed here, or empty when they can. */
  static Optional<String> missing() {
    if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux")) {
      return Optional.of("code runs need a sandbox, which Steward has only on Linux (bubblewrap)");
    }
    if (!Files.isExecutable(Path.of("/usr/bin/bwrap")) || !recentBubblewrap()) {
      return Optional.of(
          "code runs need bubblewrap 0.8 or newer at /usr/bin/bwrap (apt install bubblewrap)");
    }
    if (!Files.isExecutable(Path.of("/usr/bin/find"))) {
      return Optional.of("code runs need /usr/bin/find (apt install findutils)");
    }
    if (Privilege.root() && !Files.isDirectory(PIDS)) {
      return Optional.of("code runs as root need a pids cgroup to limit processes");
    }
    return Optional.empty();
  }

  private static volatile @org.jspecify.annotations.Nullable Boolean recent;

  /** {@code --disable-userns} came with bubblewrap 0.8.0. */
  private static boolean recentBubblewrap() {
    Boolean known = recent;
    if (known != null) return known;
    boolean ok = false;
    try {
      Process p = new ProcessBuilder("/usr/bin/bwrap", "--version")
          .redirectErrorStream(true)
          .start();
      String v = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      p.waitFor(5, java.util.concurrent.TimeUnit.SECONDS);
      java.util.regex.Matcher m =
          java.util.regex.Pattern.compile("(\\d+)\\.(\\d+)").matcher(v);
      if (m.find()) {
        int major = Integer.parseInt(m.group(1));
        int minor = Integer.parseInt(m.group(2));
        ok = major > 0 || minor >= 8;
      }
    } catch (IOException e) {
      ok = false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    recent = ok;
    return ok;
  }

  /** A sandbox that waits for its program. */
  static final class Prepared implements AutoCloseable {
    final Setup setup;
    private final Process process;
    private final Optional<Path> cgroup;
    private final Path runDir;

    private Prepared(Setup setup, Process process, Optional<Path> cgroup, Path runDir) {
      this.setup = setup;
      this.process = process;
      this.cgroup = cgroup;
      this.runDir = runDir;
    }

    boolean alive() {
      return process.isAlive();
    }

    /**
     * Puts the program where the sandbox sees it and lets it start. The process's input, from
     * here on, is the program's.
     */
    Process go(Program program) throws IOException {
      boolean bash = program.language().equals("bash");
      Path source = runDir.resolve(bash ? "main.sh" : "main.py");
      Files.writeString(source, program.source(), StandardCharsets.UTF_8);
      // The limits are set by the shell that then becomes the program (no step of its own to
      // exec); a limit that cannot be set ends the run before it starts.
      StringBuilder script = new StringBuilder();
      limit(script, "-t", program.cpuSeconds());
      limit(script, "-v", setup.memoryBytes() / 1024);
      // dash counts file sizes in 512-byte blocks, bash in 1024-byte ones.
      limit(script, "-f", setup.fileBytes() / (SHELL.endsWith("dash") ? 512 : 1024));
      limit(script, "-n", 256);
      if (!Privilege.root()) limit(script, SHELL.endsWith("dash") ? "-p" : "-u", processLimit());
      program
          .env()
          .forEach((k, v) ->
              script.append("export ").append(k).append('=').append(quote(v)).append('\n'));
      script
          .append(bash ? "exec /bin/bash " : "exec /usr/bin/python3 -I ")
          .append(quote(RUN + "/" + source.getFileName()));
      for (String arg : program.args()) script.append(' ').append(quote(arg));
      script.append('\n');
      Files.writeString(runDir.resolve("run.sh"), script, StandardCharsets.UTF_8);
      OutputStream in = process.getOutputStream();
      in.write("go\n".getBytes(StandardCharsets.US_ASCII));
      in.flush();
      return process;
    }

    /** Stops whatever still runs in it, then removes its cgroup and its files. */
    @Override
    public void close() {
      if (process.isAlive()) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
      }
      release(cgroup);
      deleteRunDir(runDir);
    }
  }

  /** A line that sets a limit (soft and hard) or ends the run with 126. */
  private static void limit(StringBuilder script, String option, long value) {
    script.append("ulimit ").append(option).append(' ').append(value).append(" || exit 126\n");
  }

  /** Starts a sandbox for {@code setup} that waits for its program; its files go under {@code runs}. */
  static Prepared prepare(Setup setup, Path runs) throws IOException {
    Files.createDirectories(runs);
    Path runDir = Files.createTempDirectory(
        runs,
        "run-",
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    List<String> argv = new ArrayList<>();
    Optional<Path> cgroup = Optional.empty();
    try {
      if (Privilege.root()) {
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
              memory.resolve("memory.limit_in_bytes"),
              Long.toString(setup.memoryBytes() + TMP_BYTES + CGROUP_HEADROOM_BYTES));
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
      // A run yields the cores to the window and the service: 64 busy processes for five
      // minutes would otherwise starve both.
      argv.addAll(List.of("/usr/bin/nice", "-n", "10"));
      argv.addAll(bubblewrap(setup, runDir));
      argv.addAll(List.of(SHELL, "-c", WAIT));
      ProcessBuilder pb = new ProcessBuilder(argv);
      // bubblewrap's own environment is readable from inside (its /proc entry): it gets none.
      pb.environment().clear();
      pb.environment().put("PATH", "/usr/bin:/bin");
      return new Prepared(setup, pb.start(), cgroup, runDir);
    } catch (IOException | RuntimeException e) {
      release(cgroup);
      deleteRunDir(runDir);
      throw e;
    }
  }

  private static List<String> bubblewrap(Setup setup, Path runDir) {
    List<String> argv = new ArrayList<>(List.of(
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
        // bwrap's /dev is a tmpfs of its own: read-only, and a small sized /dev/shm in it, so a
        // run cannot fill memory there (an unsized tmpfs may take half the machine's memory).
        "--remount-ro",
        "/dev",
        "--size",
        Long.toString(SHM_BYTES),
        "--tmpfs",
        "/dev/shm",
        "--size",
        Long.toString(TMP_BYTES),
        "--tmpfs",
        "/tmp",
        "--size",
        Long.toString(1L << 20),
        "--tmpfs",
        "/home",
        "--bind",
        setup.workspace().toString(),
        WORKSPACE,
        "--ro-bind",
        runDir.toString(),
        RUN,
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
    if (setup.network()) {
      argv.addAll(List.of("--share-net", "--ro-bind-try", "/etc/resolv.conf", "/etc/resolv.conf"));
      argv.addAll(List.of("--ro-bind-try", "/etc/ssl", "/etc/ssl"));
    }
    // No user namespace inside: in one, a run is root of its own files and could give them
    // file capabilities that, as root outside, would be real.
    argv.addAll(List.of("--unshare-user", "--disable-userns"));
    if (Privilege.root()) argv.addAll(List.of("--uid", "65534", "--gid", "65534"));
    argv.add("--");
    return argv;
  }

  /**
   * The shell that waits in the sandbox and sets the limits: dash where there is one (Debian's
   * sh), else bash — their options for the process limit differ ({@code -p}, {@code -u}).
   */
  private static final String SHELL =
      Files.isExecutable(Path.of("/bin/dash")) ? "/bin/dash" : "/bin/bash";

  /**
   * The process limit of a run when not root. From Linux 5.14 it counts the tasks of the user in
   * the sandbox's own user namespace (threads too): the run's own and the sandbox's. Before, it
   * counted all of the user's processes, so it is that many more.
   */
  private static long processLimit() {
    String[] v = System.getProperty("os.version", "0.0").split("[.-]");
    try {
      int major = Integer.parseInt(v[0]);
      int minor = v.length > 1 ? Integer.parseInt(v[1]) : 0;
      if (major > 5 || (major == 5 && minor >= 14)) return PROCESSES + 4;
    } catch (NumberFormatException e) {
      // an unusual version string: count as older kernels do
    }
    return ownProcesses() + PROCESSES;
  }

  /** A word for the POSIX shell, taken literally whatever it holds. */
  static String quote(String word) {
    return "'" + word.replace("'", "'\\''") + "'";
  }

  private static final java.util.concurrent.Executor RELEASING =
      java.util.concurrent.Executors.newSingleThreadExecutor(
          dev.steward.protocol.util.DaemonThreads.named("code-cgroup-release"));

  /**
   * Removes a run's cgroup once its last processes are gone — in the background: the answer
   * need not wait for the kernel to reap them.
   */
  private static void release(Optional<Path> cgroup) {
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

  private static void deleteRunDir(Path runDir) {
    try (var files = Files.list(runDir)) {
      for (Path f : (Iterable<Path>) files::iterator) Files.deleteIfExists(f);
      Files.deleteIfExists(runDir);
    } catch (IOException e) {
      // a folder left behind is removed with the others at the next start
    }
  }

  /** Removes what earlier runs left in {@code runs} (a service that stopped mid-run). */
  static void clearRuns(Path runs) {
    if (!Files.isDirectory(runs)) return;
    try (var dirs = Files.list(runs)) {
      for (Path d : (Iterable<Path>) dirs::iterator) deleteRunDir(d);
    } catch (IOException e) {
      // left for the next start
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
