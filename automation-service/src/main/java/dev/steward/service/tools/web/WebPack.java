package dev.steward.service.tools.web;

import dev.steward.service.tools.PackContext;
import dev.steward.service.tools.Tool;
import dev.steward.service.tools.ToolPack;
import java.util.List;

/** The web tools: {@code web.fetch} and {@code web.search}. */
public final class WebPack implements ToolPack {

  @Override
  public String name() {
    return "web";
  }

  @Override
  public List<Tool> tools(PackContext context) {
    return List.of(
        new WebFetch(context.policy(), context.resolver()),
        new WebSearch(context.policy(), context.secrets()));
  }
}
