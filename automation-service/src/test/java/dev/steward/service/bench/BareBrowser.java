package dev.steward.service.bench;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The browser's floor: a visit as a plain Java program makes it with Playwright, with no gate, no
 * guard and no proxy — a new context, {@code goto}, the body's text — on the Chromium the service
 * drives.
 */
final class BareBrowser implements AutoCloseable {

  private final Playwright playwright;
  private final Browser browser;

  private BareBrowser(Playwright playwright, Browser browser) {
    this.playwright = playwright;
    this.browser = browser;
  }

  static BareBrowser start() {
    String configured = System.getenv("STEWARD_BROWSER");
    Path exe = configured != null && !configured.isBlank()
        ? Path.of(configured)
        : Path.of("/usr/bin/chromium");
    if (!Files.isExecutable(exe))
      throw new IllegalStateException("the browser bench needs Chromium at " + exe);
    List<String> args = new ArrayList<>();
    if ("root".equals(System.getProperty("user.name"))) args.add("--no-sandbox");
    args.add("--disable-dev-shm-usage");
    Playwright playwright = Playwright.create(
        new Playwright.CreateOptions().setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
    Browser browser = playwright
        .chromium()
        .launch(new BrowserType.LaunchOptions()
            .setExecutablePath(exe)
            .setHeadless(true)
            .setArgs(args));
    return new BareBrowser(playwright, browser);
  }

  /** One visit; returns the body's text. */
  String visit(String url) {
    try (BrowserContext context = browser.newContext()) {
      Page page = context.newPage();
      page.navigate(url);
      String text = page.innerText("body");
      if (text.isEmpty()) throw new IllegalStateException("the page had no text: " + url);
      return text;
    }
  }

  @Override
  public void close() {
    browser.close();
    playwright.close();
  }
}
