package dev.steward.service.tools.mcp;

import dev.steward.service.util.Privilege;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * Where a stdio server runs: with bubblewrap, in a view of the machine in which Steward's own
 * folders (its secrets, audit log, run folder) are empty and the places programs run from later
 * are read-only ({@link RunPlaces}) — a server reads and writes the user's files as the user's
 * other programs do, but cannot take the window's secret, nor leave a program that Steward or the
 * user's session would run outside the sandbox — and which ends when the service does. Without
 * bubblewrap the server runs as it would in any other MCP client, and Settings says so.
 */
final class Sandbox {

  private static final Logger LOG = Logger.getLogger(Sandbox.class.getName());

  /**
   * The system's, never one found on the {@code PATH}: a folder there that the user can write
   * would let a server put its own in, which the service then runs outside any sandbox.
   */
  static final Path BWRAP = Path.of("/usr/bin/bwrap");

  private final @Nullable Path bwrap;
  private final List<Path> hidden;
  private final java.util.function.Supplier<RunPlaces> readOnly;

  private Sandbox(
      @Nullable Path bwrap, List<Path> hidden, java.util.function.Supplier<RunPlaces> readOnly) {
    this.bwrap = bwrap;
    this.hidden = List.copyOf(hidden);
    this.readOnly = readOnly;
  }

  /**
   * Bubblewrap, if it is installed and works on this machine; {@code readOnly} is looked at anew
   * for each server started (a place made since the last start is kept too).
   */
  static Sandbox find(List<Path> hidden, java.util.function.Supplier<RunPlaces> readOnly) {
    if (Files.isExecutable(BWRAP) && works(BWRAP)) return new Sandbox(BWRAP, hidden, readOnly);
    LOG.warning("bubblewrap (" + BWRAP + ") is not available: MCP servers run without a sandbox");
    return new Sandbox(null, hidden, readOnly);
  }

  /** User namespaces can be off (a hardened kernel, a container): then bwrap cannot run at all. */
  private static boolean works(Path bwrap) {
    try {
      Process p = new ProcessBuilder(bwrap.toString(), "--dev-bind", "/", "/", "--", "true")
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .start();
      if (!p.waitFor(5, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return false;
      }
      return p.exitValue() == 0;
    } catch (java.io.IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  boolean available() {
    return bwrap != null;
  }

  /** The command to start, inside the sandbox when there is one, in {@code folder}. */
  List<String> wrap(List<String> command, Path folder) {
    Path b = bwrap;
    if (b == null) return command;
    List<String> out = new ArrayList<>(List.of(b.toString(), "--dev-bind", "/", "/"));
    // Run by root, bubblewrap keeps root's capabilities inside: a server could unmount what
    // hides Steward's folders and read the secrets under it.
    if (Privilege.root()) out.addAll(List.of("--cap-drop", "ALL"));
    List<Path> places = readOnly.get().paths();
    List<Path> covered = new ArrayList<>(places);
    for (Path h : hidden) {
      if (Files.isDirectory(h)) covered.add(h);
    }
    // A mount is where it is by its name: a folder above it that the server renames takes the
    // mount along, and the server would put its own in its place. A folder that is a mount point
    // cannot be renamed, so each one above is mounted on itself first, the highest first.
    for (Path a : Pinned.above(covered)) out.addAll(List.of("--bind", a.toString(), a.toString()));
    for (Path p : places) out.addAll(List.of("--ro-bind", p.toString(), p.toString()));
    for (Path h : hidden) {
      if (Files.isDirectory(h)) out.addAll(List.of("--tmpfs", h.toString()));
    }
    // A process view of its own: the service's /proc entries (its root, its open files) are not
    // a way past what is hidden, and what the server leaves running ends with it.
    out.addAll(List.of("--unshare-pid", "--proc", "/proc"));
    // The server's own folder lies inside Steward's data folder: it is put back.
    out.addAll(List.of(
        "--bind",
        folder.toString(),
        folder.toString(),
        "--die-with-parent",
        "--chdir",
        folder.toString(),
        "--"));
    out.addAll(command);
    return out;
  }
}
