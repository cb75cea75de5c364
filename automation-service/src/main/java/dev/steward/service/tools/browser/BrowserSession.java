package dev.steward.service.tools.browser;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.PlaywrightException;
import com.microsoft.playwright.Route;
import com.microsoft.playwright.options.ServiceWorkerPolicy;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.protocol.util.DaemonThreads;
import dev.steward.service.scope.PinningProxy;
import dev.steward.service.tools.ToolFailure;
import dev.steward.service.util.Privilege;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * One thread owns Playwright (its objects are not thread-safe). The browser starts on the first
 * visit (or while one waits for the user's click) and stays warm between calls, until it has gone
 * unused for {@link #IDLE}: then it stops, driver and all, and gives its memory back (~0.5 GB with
 * a context ready); the next visit starts it again. Each visit gets a fresh context — or, when the user keeps
 * a profile, a new tab of the one persistent context kept in {@code profileDir}. Switching the
 * profile off closes that context and deletes the folder. Browsers are never downloaded:
 * Playwright is told so, and the executable comes from {@link BrowserLocator}.
 */
final class BrowserSession implements AutoCloseable {

  /** Where a visit happens: the context and the visit's own page. */
  record Tab(BrowserContext context, Page page) {}

  /**
   * The guard of the visit in progress. Every context routes all its requests here from the
   * moment it is made (registering a route is a round trip to the browser, ~20 ms, so it is not
   * done per visit); between visits nothing may load at all.
   */
  private volatile @Nullable NavigationGuard current;

  private final Supplier<Optional<Path>> executable;
  private final Path profileDir;
  private final Path driverDir;
  private final ScheduledThreadPoolExecutor thread = browserThread();

  /** How long the browser stays up with no visit before it is stopped. */
  static final Duration IDLE =
      Duration.ofSeconds(Long.getLong("steward.browser.idle.seconds", 600));

  /** When the browser was last used or started ({@code nanoTime}); on the browser thread. */
  private long lastUsed;

  private @Nullable Playwright playwright;
  /** Every connection of the browser goes through it (started with the browser). */
  private @Nullable PinningProxy proxy;
  /** Contexts of visits that have answered, closed on the browser thread before anything else. */
  private final List<BrowserContext> finished = new ArrayList<>();

  private @Nullable Browser browser;
  private @Nullable BrowserContext spare;
  private @Nullable BrowserContext profile;

  /** A start ahead of a visit is waiting on the browser thread ({@link #prepare}). */
  private final AtomicBoolean preparing = new AtomicBoolean();

  /** Set by a start ahead that failed, cleared by a visit. */
  private volatile boolean startFailed;

  BrowserSession(Supplier<Optional<Path>> executable, Path profileDir, Path driverDir) {
    this.executable = executable;
    this.profileDir = profileDir;
    this.driverDir = driverDir;
  }

  /**
   * Runs a visit on the browser thread; the caller waits on the future. Afterwards the visit's
   * fresh context is closed, or, in the kept profile, the pages it opened.
   */
  <T> Future<T> visit(boolean keepProfile, NavigationGuard guard, Function<Tab, T> work) {
    return thread.submit((Callable<T>) () -> {
      // The last visit's context goes before this visit's guard is in force: none of its pages'
      // scripts may run on under this visit's name.
      closeFinished();
      current = guard;
      try {
        return visitNow(keepProfile, work);
      } finally {
        current = null;
        used();
      }
    });
  }

  private static ScheduledThreadPoolExecutor browserThread() {
    ScheduledThreadPoolExecutor t =
        new ScheduledThreadPoolExecutor(1, DaemonThreads.named("steward-browser"));
    t.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    return t;
  }

  /** The browser was used now: it is stopped if it is not used again for {@link #IDLE}. */
  private void used() {
    lastUsed = System.nanoTime();
    if (!thread.isShutdown())
      thread.schedule(this::stopIfIdle, IDLE.toNanos(), TimeUnit.NANOSECONDS);
  }

  /** Runs on the browser thread, so never during a visit; one used since leaves it to a later check. */
  private void stopIfIdle() {
    if (System.nanoTime() - lastUsed < IDLE.toNanos()) return;
    closeFinished();
    stopBrowser();
  }

  /** The contexts, the browser and the driver closed; the next visit starts them again. */
  private void stopBrowser() {
    closeQuietly(() -> {
      if (spare != null) spare.close();
    });
    closeQuietly(() -> {
      if (profile != null) profile.close();
    });
    closeQuietly(() -> {
      if (browser != null) browser.close();
    });
    closeQuietly(() -> {
      if (playwright != null) playwright.close();
    });
    spare = null;
    profile = null;
    browser = null;
    playwright = null;
  }

  private <T> T visitNow(boolean keepProfile, Function<Tab, T> work) {
    startFailed = false;
    if (keepProfile) return visitInProfile(work);
    forgetProfile();
    BrowserContext context = freshContext(browser());
    try {
      return work.apply(new Tab(context, context.pages().get(0)));
    } finally {
      // Closed as the thread's next task, so the answer does not wait for it — and in any case
      // before the next visit starts; meanwhile the page can load nothing (no guard is current).
      finished.add(context);
      if (thread.isShutdown()) closeFinished();
      else thread.execute(this::closeFinished);
    }
  }

  private <T> T visitInProfile(Function<Tab, T> work) {
    BrowserContext context = profile();
    Set<Page> before;
    Page page;
    try {
      if (context.pages().isEmpty())
        context.newPage(); // a blank tab that stays keeps the context open
      before = Set.copyOf(context.pages());
      page = context.newPage();
    } catch (PlaywrightException e) {
      // the profile's browser went away (it crashed or was killed): start it again
      profile = null;
      closeQuietly(context::close);
      context = profile();
      if (context.pages().isEmpty()) context.newPage();
      before = Set.copyOf(context.pages());
      page = context.newPage();
    }
    BrowserContext kept = context;
    Set<Page> keptPages = before;
    try {
      return work.apply(new Tab(kept, page));
    } finally {
      // Every tab the visit opened (its own, and any pop-up) closes; their scripts stop.
      closeQuietly(() ->
          kept.pages().stream().filter(p -> !keptPages.contains(p)).toList().forEach(Page::close));
    }
  }

  /** Sends each request of any context to the current visit's guard, or stops it between visits. */
  private void route(Route route) {
    NavigationGuard g = current;
    if (g == null) route.abort("blockedbyclient");
    else g.handle(route);
  }

  private void closeFinished() {
    for (BrowserContext c : finished) closeQuietly(c::close);
    finished.clear();
  }

  private static void closeQuietly(Runnable close) {
    try {
      close.run();
    } catch (PlaywrightException e) {
      // the browser went away; it is restarted on the next visit
    }
  }

  /** The kept profile's context, started (and the plain browser stopped) if need be. */
  private BrowserContext profile() {
    BrowserContext c = profile;
    if (c != null) return c;
    closeQuietly(() -> {
      if (spare != null) spare.close();
      if (browser != null) browser.close();
    });
    spare = null;
    browser = null;
    Path exe = executableOrFail();
    try {
      Files.createDirectories(profileDir);
      c = playwright()
          .chromium()
          .launchPersistentContext(
              profileDir,
              new BrowserType.LaunchPersistentContextOptions()
                  .setExecutablePath(exe)
                  .setHeadless(true)
                  .setChromiumSandbox(chromiumSandbox())
                  .setArgs(args())
                  .setProxy(proxySetting())
                  .setTimeout(30_000)
                  .setAcceptDownloads(false)
                  .setServiceWorkers(ServiceWorkerPolicy.BLOCK)
                  .setViewportSize(1280, 900));
      c.route("**/*", this::route);
    } catch (PlaywrightException e) {
      throw new VisitFailure(new ToolFailure(
          ToolErrorCodes.UNAVAILABLE, "cannot start the browser at " + exe + ": " + describe(e)));
    } catch (IOException e) {
      throw new VisitFailure(new ToolFailure(
          ToolErrorCodes.UNAVAILABLE,
          "cannot create the browser profile in " + profileDir + ": " + e.getMessage()));
    }
    profile = c;
    return c;
  }

  /** The profile is off: its context is closed and its folder (cookies, storage) deleted. */
  private void forgetProfile() {
    if (profile != null) {
      closeQuietly(profile::close);
      profile = null;
    }
    if (!Files.exists(profileDir, LinkOption.NOFOLLOW_LINKS)) return;
    try (Stream<Path> walk = Files.walk(profileDir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
    } catch (IOException | UncheckedIOException e) {
      throw new VisitFailure(new ToolFailure(
          ToolErrorCodes.EXECUTION_ERROR,
          "the browser profile in " + profileDir + " could not be deleted (" + e.getMessage()
              + "); nothing was opened"));
    }
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

  /**
   * Starts what the next visit needs (the driver, the browser and, outside the kept profile, the
   * visit's context) on the browser thread: after a visit, and while one waits for the user's
   * click. Nothing loads: no guard is current. What fails to start is left for the visit to
   * report.
   */
  void prepare(boolean keepProfile) {
    // One waits at most: a burst of calls shown for a click queues no more than one start ahead
    // of the visits. After a start that failed, only a visit tries again (and says why).
    if (thread.isShutdown() || startFailed || !preparing.compareAndSet(false, true)) return;
    thread.execute(() -> {
      preparing.set(false);
      try {
        if (keepProfile) profile();
        else if (spare == null && profile == null) spare = newContext(browser());
        used();
      } catch (RuntimeException e) {
        startFailed = true;
      }
    });
  }

  private BrowserContext newContext(Browser b) {
    BrowserContext c = b.newContext(new Browser.NewContextOptions()
        .setAcceptDownloads(false)
        .setProxy(proxySetting())
        .setServiceWorkers(ServiceWorkerPolicy.BLOCK)
        .setViewportSize(1280, 900));
    c.route("**/*", this::route);
    c.newPage();
    return c;
  }

  /** Unwraps a failed visit into the tool failure it carries. */
  static ToolFailure failureOf(ExecutionException e) {
    Throwable cause = e.getCause() == null ? e : e.getCause();
    if (cause instanceof VisitFailure v) return v.failure;
    String message =
        cause instanceof PlaywrightException p ? describe(p) : firstLine(cause.getMessage());
    return new ToolFailure(ToolErrorCodes.EXECUTION_ERROR, "the browser failed: " + message);
  }

  private Browser browser() {
    Browser b = browser;
    if (b != null && b.isConnected()) return b;
    Path exe = executableOrFail();
    try {
      b = playwright()
          .chromium()
          .launch(new BrowserType.LaunchOptions()
              .setExecutablePath(exe)
              .setHeadless(true)
              .setChromiumSandbox(chromiumSandbox())
              .setArgs(args())
              .setProxy(proxySetting())
              .setTimeout(30_000));
    } catch (PlaywrightException e) {
      throw new VisitFailure(new ToolFailure(
          ToolErrorCodes.UNAVAILABLE, "cannot start the browser at " + exe + ": " + describe(e)));
    }
    browser = b;
    return b;
  }

  private Path executableOrFail() {
    return executable
        .get()
        .orElseThrow(
            () -> new VisitFailure(
                new ToolFailure(
                    ToolErrorCodes.UNAVAILABLE,
                    "no Chromium or Chrome was found: install one (Debian/Ubuntu: apt-get install chromium) or set STEWARD_BROWSER to its path")));
  }

  private Playwright playwright() {
    if (playwright == null) {
      useDriverDir(driverDir);
      playwright = Playwright.create(
          new Playwright.CreateOptions().setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
    }
    return playwright;
  }

  /**
   * The browser's proxy: {@link PinningProxy}, for loopback too ({@code <-loopback>} removes
   * Chromium's own bypass of it). Started once, on the browser thread.
   */
  private com.microsoft.playwright.options.Proxy proxySetting() {
    if (proxy == null) {
      try {
        proxy = PinningProxy.start(() -> current);
      } catch (IOException e) {
        throw new VisitFailure(new ToolFailure(
            ToolErrorCodes.UNAVAILABLE,
            "cannot start the browser's guard proxy: " + e.getMessage()));
      }
    }
    return new com.microsoft.playwright.options.Proxy("http://127.0.0.1:" + proxy.port())
        .setBypass("<-loopback>");
  }

  /**
   * Whether Chromium runs in its own sandbox: Playwright turns it off unless asked, and a page's
   * renderer would then run as the user, able to read Steward's secrets. Chromium's sandbox
   * refuses to run as root (CI, containers).
   */
  private static boolean chromiumSandbox() {
    return !Privilege.root();
  }

  /**
   * Playwright's driver, as the package ships it or unpacked once under Steward's data folder
   * ({@link DriverFolder}): left to itself Playwright would unpack it into {@code java.io.tmpdir}
   * at every start, where a program of the user's that is kept from Steward's folders (an MCP
   * server in its sandbox) could replace it first.
   */
  static Path useDriverDir(Path driverDir) {
    try {
      return DriverFolder.use(driverDir);
    } catch (IOException e) {
      throw new VisitFailure(new ToolFailure(
          ToolErrorCodes.UNAVAILABLE,
          "cannot prepare the browser's driver folder: " + e.getMessage()));
    }
  }

  private static List<String> args() {
    List<String> args = new ArrayList<>();
    args.add("--disable-dev-shm-usage");
    // Chromium finds no host by itself: every name goes to the proxy, which looks it up once per
    // visit and connects to the address it checked. No UDP leaves outside the proxy (WebRTC).
    args.add("--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1");
    args.add("--force-webrtc-ip-handling-policy=disable_non_proxied_udp");
    args.add("--disable-quic");
    return args;
  }

  /**
   * Playwright's messages are multi-line ("Error {\n  message='…'\n  name='…'"): the message
   * line is the part a person can read.
   */
  static String describe(PlaywrightException e) {
    String text = e.getMessage() == null ? "" : e.getMessage();
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("message='([^\n]*)").matcher(text);
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
    thread.submit(() -> {
      try {
        stopBrowser();
      } finally {
        if (proxy != null) proxy.close();
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
