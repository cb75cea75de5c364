package dev.steward.service.tools.code;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Removes set-user-ID and set-group-ID bits from every file of a workspace, at any depth. As root
 * the sandbox's files belong to root outside it: a set-ID file left there would run as root for
 * anyone who can reach it. {@code find} walks by descriptor and changes each file from inside its
 * own folder, so no path is too long and no link is followed; before and after every run.
 */
final class SetIdSweep {

  private static final long TIMEOUT_S = 60;

  private SetIdSweep() {}

  /** Whether the workspace now holds no set-ID file (the sweep ran to its end). */
  static boolean clean(Path workspace) {
    ProcessBuilder pb = new ProcessBuilder(
        "/usr/bin/find",
        workspace.toString(),
        "-xdev",
        "-type",
        "f",
        "-perm",
        "/6000",
        "-execdir",
        "/bin/chmod",
        "ug-s",
        "--",
        "{}",
        "+");
    pb.environment().clear();
    pb.environment().put("PATH", "/usr/bin:/bin");
    pb.redirectErrorStream(true);
    pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
    try {
      Process p = pb.start();
      if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return false;
      }
      return p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
