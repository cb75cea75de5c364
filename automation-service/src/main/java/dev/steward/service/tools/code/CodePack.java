package dev.steward.service.tools.code;

import dev.steward.protocol.method.PackSettings;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.service.tools.PackContext;
import dev.steward.service.tools.Tool;
import dev.steward.service.tools.ToolPack;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** The code tools: {@code code.run}. */
public final class CodePack implements ToolPack {

  private volatile @Nullable ReadySandbox ready;
  private volatile @Nullable CodeRun run;

  @Override
  public String name() {
    return "code";
  }

  /** Settings, "Code runs": {@code code} in policy.json (SPEC §13); off until the user turns it on. */
  @Override
  public Optional<PackSettings.Section> settings() {
    return Optional.of(new PackSettings.Section(
        name(),
        "Code runs",
        "Runs happen in a sandbox (bubblewrap): they see this folder and the system's programs,"
            + " nothing else of your files. Each run may take up to "
            + CodeRun.MAX_TIMEOUT_S / 60 + " minutes and " + Sandbox.PROCESSES
            + " processes; what it prints is cut at " + (CodeRun.MAX_OUTPUT >> 20) + " MB.",
        "code",
        List.of(
            PackSettings.Field.toggle(
                "enabled",
                "Let the assistant run Python and Bash (each run asks first)",
                "",
                false),
            PackSettings.Field.toggle(
                "network", "Runs may use the network (then a run can send data out)", "", false),
            PackSettings.Field.text("workspace", "Folder", "", "~/Steward").asRequired(),
            PackSettings.Field.number(
                "memory_mb",
                "Memory for a run (MB)",
                "",
                PolicyDocument.Code.MEMORY_MB,
                PolicyDocument.Code.MEMORY_MB_MIN,
                PolicyDocument.Code.LIMIT_MB_MAX),
            PackSettings.Field.number(
                "file_mb",
                "Largest file a run may write (MB)",
                "",
                PolicyDocument.Code.FILE_MB,
                1,
                PolicyDocument.Code.LIMIT_MB_MAX))));
  }

  @Override
  public List<Tool> tools(PackContext context) {
    ReadySandbox ready = new ReadySandbox(context.data().resolve("code").resolve("runs"));
    CodeRun run =
        new CodeRun(context.policy(), context.userHome(), context.privateFolders(), ready);
    this.ready = ready;
    this.run = run;
    context.onPolicyChange().accept(run::prepareAhead);
    return List.of(run);
  }

  /** Once the service answers, a sandbox is made ahead for the first run (when runs are on). */
  @Override
  public void start() {
    CodeRun r = run;
    if (r != null) r.prepareAhead();
  }

  @Override
  public void close() {
    ReadySandbox r = ready;
    if (r != null) r.close();
  }
}
