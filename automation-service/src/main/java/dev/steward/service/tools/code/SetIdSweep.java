package dev.steward.service.tools.code;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Removes set-user-ID and set-group-ID bits from every file of a workspace, at any depth. As root
 * the sandbox's files belong to root outside it: a set-ID file left there would run as root for
 * anyone who can reach it. {@code find} walks by descriptor and changes each file from inside its
 * own folder, so no path is too long and no link is followed.
 */
final class SetIdSweep {

  private static final long TIMEOUT_S = 60;
  private static final int MAX_SAID = 500;

  private SetIdSweep() {}

  /** Why the workspace may still hold a set-ID file, or empty when the sweep ran to its end. */
  static Optional<String> problem(Path workspace) {
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
    try {
      Process p = pb.start();
      CompletableFuture<String> said = CompletableFuture.supplyAsync(() -> {
        try {
          return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
          return "";
        }
      });
      if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return Optional.of("the check took longer than " + TIMEOUT_S + " s");
      }
      if (p.exitValue() == 0) return Optional.empty();
      String out = said.join();
      return Optional.of(
          out.isEmpty()
              ? "find ended with " + p.exitValue()
              : out.length() > MAX_SAID ? out.substring(0, MAX_SAID) + "…" : out);
    } catch (IOException e) {
      return Optional.of("find could not start: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.of("interrupted");
    }
  }
}
