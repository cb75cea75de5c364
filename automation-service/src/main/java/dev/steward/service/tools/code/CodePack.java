package dev.steward.service.tools.code;

import dev.steward.service.tools.PackContext;
import dev.steward.service.tools.Tool;
import dev.steward.service.tools.ToolPack;
import java.util.List;

/** The code tools: {@code code.run}. */
public final class CodePack implements ToolPack {

  @Override
  public String name() {
    return "code";
  }

  @Override
  public List<Tool> tools(PackContext context) {
    return List.of(new CodeRun(context.policy(), context.userHome(), context.privateFolders()));
  }
}
