package dev.steward.service.tools.desktop;

import dev.steward.service.tools.PackContext;
import dev.steward.service.tools.Tool;
import dev.steward.service.tools.ToolPack;
import java.util.List;

/** The desktop tools: the clipboard, notifications, and the user's allowlisted apps. */
public final class DesktopPack implements ToolPack {

  @Override
  public String name() {
    return "desktop";
  }

  @Override
  public List<Tool> tools(PackContext context) {
    return List.of(
        new ClipboardTools.Read(),
        new ClipboardTools.Write(),
        new NotifySend(),
        new OpenApp(context.policy()));
  }
}
