package dev.steward.service.tools.files;

import dev.steward.service.tools.ToolRegistry;

/** Registers the file tools. */
public final class FileTools {

  private FileTools() {}

  public static void registerAll(ToolRegistry registry) {
    registry
        .register(new ListDir())
        .register(new SearchFiles())
        .register(new ReadText())
        .register(new WriteText())
        .register(new EnsureDir())
        .register(new MoveFile())
        .register(new DeleteFile());
  }
}
