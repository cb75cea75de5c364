package dev.steward.service.tools.browser;

import dev.steward.service.tools.PackContext;
import dev.steward.service.tools.Tool;
import dev.steward.service.tools.ToolPack;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** {@code browser.open_url}: one Chromium, driven through Playwright, kept for the service's life. */
public final class BrowserPack implements ToolPack {

  private @Nullable OpenUrl openUrl;

  @Override
  public String name() {
    return "browser";
  }

  @Override
  public synchronized List<Tool> tools(PackContext context) {
    if (openUrl == null) {
      openUrl = new OpenUrl(
          context.policy(),
          context.resolver(),
          context.environment(),
          context.userHome(),
          context.data().resolve("browser-profile"),
          context.data().resolve("browser-driver"));
    }
    return List.of(openUrl);
  }

  @Override
  public synchronized void close() {
    if (openUrl != null) openUrl.close();
  }
}
