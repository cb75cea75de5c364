package dev.steward.service.tools.files;

import dev.steward.service.tools.PackContext;
import dev.steward.service.tools.Tool;
import dev.steward.service.tools.ToolPack;
import dev.steward.service.tools.WarmupCall;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** The file tools (SPEC §6): list, search, read, write, make folders, move, delete — all inside the path scope. */
public final class FilesPack implements ToolPack {

  @Override
  public String name() {
    return "files";
  }

  @Override
  public List<Tool> tools(PackContext context) {
    return List.of(
        new ListDir(),
        new SearchFiles(),
        new ReadText(),
        new WriteText(),
        new EnsureDir(),
        new MoveFile(),
        new DeleteFile());
  }

  @Override
  public List<WarmupCall> warmups(Path scratch) throws IOException {
    return FilesWarmup.calls(scratch);
  }
}
