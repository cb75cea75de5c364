package dev.steward.service.tools.browser;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.PlaywrightException;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.tools.ToolFailure;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * One thread owns Playwright (its objects are not thread-safe). The browser starts on the first
 * visit and stays warm between calls; each visit gets a fresh context. Browsers are never
 * downloaded: Playwright is told so, and the executable comes from {@link BrowserLocator}.
 */
final class BrowserSession implements AutoCloseable {

  private final Supplier<Optional<Path>> executable;
  private final ExecutorService thread =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "steward-browser");
            t.setDaemon(true);
            return t;
          });
  private @Nullable Playwright playwright;
  private @Nullable Browser browser;
  private @Nullable BrowserContext spare;

  BrowserSession(Supplier<Optional<Path>> executable) {
    this.executable = executable;
  }

  /** Submits work to the browser thread; the caller waits on the future. */
  <T> Future<T> submit(Function<Browser, T> work) {
    return thread.submit((Callable<T>) () -> work.apply(browser()));
  }

  /**
   * A fresh context with one page for a visit. Opening one costs a renderer process, so the next
   * is prepared while the browser thread is idle after a visit; every visit still gets its own,
   * never used before. Runs on the browser thread.
   */
  BrowserContext freshContext(Browser b) {
    BrowserContext c = spare;
    spare = null;
    if (c != null) {
      try {
        if (!c.pages().isEmpty()) return c;
      } catch (PlaywrightException e) {
        // the browser restarted; make a new one
      }
    }
    return newContext(b);
  }

  /** Prepares the next visit's context in the background (on the browser thread, after this visit). */
  void prepareNext() {
    if (thread.isShutdown()) return;
    thread.execute(() -> {
      try {
        if (spare == null) spare = newContext(browser());
      } catch (RuntimeException e) {
        spare = null; // the next visit makes its own and reports what is wrong
      }
    });
  }

  private static BrowserContext newContext(Browser b) {
    BrowserContext c = b.newContext(new Browser.NewContextOptions().setAcceptDownloads(false)
        .setServiceWorkers(com.microsoft.playwright.options.ServiceWorkerPolicy.BLOCK).setViewportSize(1280, 900));
    c.newPage();
    return c;
  }

  /** Unwraps a failed visit into the tool failure it carries. */
  static ToolFailure failureOf(ExecutionException e) {
    Throwable cause = e.getCause();
    if (cause instanceof VisitFailure v) return v.failure;
    String message = cause instanceof PlaywrightException p ? describe(p) : firstLine(cause.getMessage());
    return new ToolFailure(ToolErrorCodes.EXECUTION_ERROR, "the browser failed: " + message);
  }

  private Browser browser() {
    Browser b = browser;
    if (b != null && b.isConnected()) return b;
    Path exe =
        executable.get()
            .orElseThrow(
                () -> new VisitFailure(new ToolFailure(ToolErrorCodes.UNAVAILABLE,
                    "no Chromium or Chrome was found: install one (Debian/Ubuntu: apt-get install chromium) or set STEWARD_BROWSER to its path")));
    try {
      if (playwright == null) {
        playwright = Playwright.create(new Playwright.CreateOptions().setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
      }
      List<String> args = new ArrayList<>();
      // Chromium's sandbox refuses to run as root; a desktop user's session keeps it on.
      if ("root".equals(System.getProperty("user.name"))) args.add("--no-sandbox");
      args.add("--disable-dev-shm-usage");
      b = playwright.chromium().launch(new BrowserType.LaunchOptions().setExecutablePath(exe).setHeadless(true).setArgs(args).setTimeout(30_000));
    } catch (PlaywrightException e) {
      throw new VisitFailure(new ToolFailure(ToolErrorCodes.UNAVAILABLE, "cannot start the browser at " + exe + ": " + describe(e)));
    }
    browser = b;
    return b;
  }

  /**
   * Playwright's messages are multi-line ("Error {\n  message='…'\n  name='…'"): the message
   * line is the part a person can read.
   */
  static String describe(PlaywrightException e) {
    String text = e.getMessage() == null ? "" : e.getMessage();
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("message='([^\n]*)").matcher(text);
    String line = m.find() ? m.group(1) : firstLine(text);
    if (line.endsWith("'")) line = line.substring(0, line.length() - 1);
    return line.strip();
  }

  static String firstLine(@Nullable String s) {
    if (s == null) return "unknown error";
    int nl = s.indexOf('\n');
    return (nl < 0 ? s : s.substring(0, nl)).strip();
  }

  @Override
  public synchronized void close() {
    if (thread.isShutdown()) return;
    thread.submit(
        () -> {
          try {
            if (spare != null) spare.close();
            if (browser != null) browser.close();
            if (playwright != null) playwright.close();
          } catch (PlaywrightException e) {
            // shutting down anyway
          }
        });
    thread.shutdown();
  }

  /** A tool failure raised on the browser thread, carried back to the calling thread. */
  static final class VisitFailure extends RuntimeException {
    final ToolFailure failure;

    VisitFailure(ToolFailure failure) {
      super(failure.getMessage(), null, false, false);
      this.failure = failure;
    }
  }
}
