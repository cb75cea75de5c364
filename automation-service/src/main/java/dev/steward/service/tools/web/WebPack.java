package dev.steward.service.tools.web;

import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.tools.PackContext;
import dev.steward.service.tools.PackMethod;
import dev.steward.service.tools.Tool;
import dev.steward.service.tools.ToolFailure;
import dev.steward.service.tools.ToolPack;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** The web tools: {@code web.fetch} and {@code web.search}. */
public final class WebPack implements ToolPack {

  @Override
  public String name() {
    return "web";
  }

  private volatile @Nullable WebSearch search;

  @Override
  public List<Tool> tools(PackContext context) {
    WebSearch s = new WebSearch(context.policy(), context.secrets());
    search = s;
    return List.of(new WebFetch(context.policy(), context.resolver()), s);
  }

  /** Settings' Test of the search provider ({@code {}} → {@code {ok, provider, results | problem}}). */
  @Override
  public List<PackMethod> methods() {
    return List.of(new PackMethod("web.search_check", params -> {
      WebSearch s = search;
      if (s == null)
        throw new ToolFailure(ToolErrorCodes.UNAVAILABLE, "the web pack has not started");
      return s.check();
    }));
  }
}
