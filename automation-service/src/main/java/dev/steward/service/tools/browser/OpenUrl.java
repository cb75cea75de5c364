package dev.steward.service.tools.browser;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.PlaywrightException;
import com.microsoft.playwright.Response;
import com.microsoft.playwright.TimeoutError;
import com.microsoft.playwright.options.LoadState;
import com.microsoft.playwright.options.WaitUntilState;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.protocol.util.Counted;
import dev.steward.service.scope.Access;
import dev.steward.service.scope.HostResolver;
import dev.steward.service.scope.HostScope;
import dev.steward.service.scope.ResolvedPath;
import dev.steward.service.scope.SafeFs;
import dev.steward.service.tools.BaseTool;
import dev.steward.service.tools.FileErrors;
import dev.steward.service.tools.HostUse;
import dev.steward.service.tools.PathUse;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolDefinitions;
import dev.steward.service.tools.ToolFailure;
import java.io.IOException;
import java.net.URI;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * {@code browser.open_url}: opens a page in a real Chromium (Playwright) and returns its final
 * address, title and readable text (bounded), and on request a screenshot saved in an allowed
 * folder. Allowlisted hosts open without a token, others need one (the gate's host scope); every
 * navigation and redirect of the visit is checked by {@link NavigationGuard}. Downloads are off,
 * each visit has a fresh context (no cookies carried over) unless the user keeps a browser profile,
 * and the page's text taints the trace.
 */
public final class OpenUrl extends BaseTool implements AutoCloseable {

  static final int DEFAULT_MAX_CHARS = 20_000;
  private static final long SETTLE_MILLIS = 50;

  private static final ToolDefinition DEFINITION =
      ToolDefinitions.load(OpenUrl.class, "browser.open_url.json");

  private final Supplier<PolicyDocument> policy;
  private final HostResolver resolver;
  private final BrowserSession session;

  /**
   * {@code profileDir}: where the browser profile is kept when the user turns that on (policy.json's
   * browser.keep_profile); {@code driverDir}: where the program that drives the browser
   * (Playwright's driver) is unpacked, unless the package ships it.
   */
  public OpenUrl(
      Supplier<PolicyDocument> policy,
      HostResolver resolver,
      Map<String, String> env,
      Path userHome,
      Path profileDir,
      Path driverDir) {
    super(DEFINITION);
    this.policy = policy;
    this.resolver = resolver;
    this.session = new BrowserSession(
        () -> BrowserLocator.find(env, userHome, System.getProperty("os.name", "")),
        profileDir,
        driverDir);
  }

  @Override
  public List<HostUse> hosts(JsonNode args) {
    return List.of(new HostUse("/url", args.path("url").asText()));
  }

  @Override
  public List<PathUse> paths(JsonNode args) {
    return args.hasNonNull("screenshot_path")
        ? List.of(
            new PathUse("/screenshot_path", args.get("screenshot_path").asText(), Access.WRITE))
        : List.of();
  }

  /**
   * A visit that saves a screenshot changes a file; one in the kept profile goes with the user's
   * cookies and can act as the user on the site (a link that posts, a form a script submits), so
   * after untrusted content it asks first too.
   */
  @Override
  public boolean mutates(JsonNode args) {
    return args.hasNonNull("screenshot_path") || policy.get().browser().keepProfile();
  }

  /**
   * What an approved visit does: where it goes, with which profile (a kept one carries the user's
   * sign-ins there), and that the page's own requests then go to any public host.
   */
  @Override
  public Optional<JsonNode> preview(JsonNode args, ToolContext ctx) {
    boolean kept = policy.get().browser().keepProfile();
    String url = args.path("url").asText();
    ObjectNode p = Json.object();
    p.put("operation", "open a page");
    p.put("url", url);
    p.put("profile", kept ? "kept" : "fresh");
    // The file the screenshot goes to as the gate resolved it, not as the model spelled it.
    ResolvedPath shot = ctx.paths().get("/screenshot_path");
    if (shot != null) p.put("screenshot_path", shot.real().toString());
    p.put(
        "says",
        "Open " + url
            + (kept
                ? " in the browser profile Steward keeps: your sign-ins and cookies there go with"
                    + " the visit"
                : " in a fresh browser context, with no cookies")
            + (shot != null ? "; save a screenshot to " + shot.real() : "")
            + "; the page's own requests (images, scripts) may go to other public hosts");
    return Optional.of(p);
  }

  @Override
  public Optional<String> taintSource(JsonNode args, ToolContext ctx) {
    return Optional.of(HostUse.pageTaint(args.path("url").asText()));
  }

  @Override
  public Duration timeLimit() {
    return Duration.ofSeconds(100);
  }

  @Override
  public JsonNode run(JsonNode args, ToolContext ctx) throws ToolFailure {
    HostScope scope = new HostScope(policy.get().hosts(), resolver);
    URI uri = HostUse.checked(scope, args.path("url").asText(), "/url");
    int maxChars = args.path("max_chars").asInt(DEFAULT_MAX_CHARS);
    long timeoutMs = args.path("timeout_s").asLong(20) * 1000;
    boolean screenshot = args.hasNonNull("screenshot_path");
    // Unasked in a conversation that took in untrusted content, the page's own requests stay
    // with the hosts the user trusts: what the model put in the address cannot ride a tracker's
    // pixel or a script's beacon to anyone else.
    NavigationGuard guard = new NavigationGuard(
        scope, HostScope.asciiHost(uri), timeoutMs, ctx.tainted() && !ctx.confirmed());
    boolean keepProfile = policy.get().browser().keepProfile();
    Future<Visit> visit = session.visit(
        keepProfile, guard, tab -> visit(tab, guard, uri.toString(), timeoutMs, screenshot));
    session.prepare(keepProfile);
    Visit page;
    try {
      page = visit.get(timeoutMs + 60_000, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      // Playwright cannot be called from this thread; the guard makes the browser thread drop
      // the visit at its next request, and the answer does not wait for that.
      guard.cancel();
      Thread.currentThread().interrupt();
      throw new ToolFailure(ToolErrorCodes.CANCELLED, "the visit was cancelled");
    } catch (TimeoutException e) {
      guard.cancel();
      throw new ToolFailure(ToolErrorCodes.TIMEOUT, "the browser did not answer in time");
    } catch (ExecutionException e) {
      throw BrowserSession.failureOf(e);
    }
    ObjectNode result = Json.object();
    result.put("final_url", page.finalUrl());
    result.put("status", page.status());
    result.put("title", page.title());
    boolean truncated = page.text().length() > maxChars;
    result.put("text", truncated ? page.text().substring(0, maxChars) : page.text());
    result.put("truncated", truncated);
    if (truncated)
      result.put(
          "truncated_reason",
          "the page has " + page.text().length() + " characters of text; max_chars is " + maxChars);
    ArrayNode blocked = result.putArray("blocked");
    guard.blocked().forEach(blocked::add);
    if (page.screenshot() != null) {
      ResolvedPath target = ctx.path("/screenshot_path");
      try (SafeFs.Dir dir = SafeFs.openParent(target)) {
        SafeFs.writeAtomically(dir, page.screenshot(), true);
      } catch (FileAlreadyExistsException e) {
        throw taken(target);
      } catch (IOException e) {
        throw onScreenshot(FileErrors.of(e, target.requested()));
      }
      result.put("screenshot", target.real().toString());
    }
    return result;
  }

  /** The browser starts while the user reads the dialog, not after the click. */
  @Override
  public void prepare() {
    session.prepare(policy.get().browser().keepProfile());
  }

  /**
   * A screenshot goes to a new file in a folder that is there: one that would not be written is
   * refused before the dialog, not after the visit it asked for.
   */
  @Override
  public void checkNow(JsonNode args, ToolContext ctx) throws ToolFailure {
    ResolvedPath target = ctx.paths().get("/screenshot_path");
    if (target == null) return;
    try (SafeFs.Dir dir = SafeFs.openParent(target)) {
      if (SafeFs.attributes(dir.stream(), dir.name()).isPresent()) throw taken(target);
    } catch (IOException e) {
      throw onScreenshot(FileErrors.of(e, target.requested()));
    }
  }

  /** A file error of the screenshot's path, named by its own argument. */
  private static ToolFailure onScreenshot(ToolFailure f) {
    return new ToolFailure(
        f.error().code(), f.error().message(), "/screenshot_path", f.error().details());
  }

  private static ToolFailure taken(ResolvedPath target) {
    return new ToolFailure(
        ToolErrorCodes.ALREADY_EXISTS,
        "\"" + target.requested() + "\" exists; choose a new file for the screenshot",
        "/screenshot_path",
        null);
  }

  /** What a visit brought back, read on the browser thread. */
  record Visit(
      String finalUrl, int status, String title, String text, byte @Nullable [] screenshot) {}

  private static Visit visit(
      BrowserSession.Tab tab,
      NavigationGuard guard,
      String url,
      long timeoutMs,
      boolean screenshot) {
    // One deadline for the whole visit: a page that never yields after its load (a script that
    // spins) would otherwise hold the browser's one thread for a full wait at each step.
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    tab.context().setDefaultTimeout(timeoutMs);
    Page page = tab.page();
    Response response;
    try {
      response = page.navigate(
          url, new Page.NavigateOptions().setTimeout(timeoutMs).setWaitUntil(WaitUntilState.LOAD));
    } catch (PlaywrightException e) {
      throw new BrowserSession.VisitFailure(navigationFailure(guard, e));
    }
    // A meta refresh or a script may navigate at once; give it a moment (the guard checks it).
    if (!guard.quietDocument()) page.waitForTimeout(SETTLE_MILLIS);
    if (guard.cancelled())
      throw new BrowserSession.VisitFailure(
          new ToolFailure(ToolErrorCodes.CANCELLED, "the visit was cancelled"));
    String text = readText(page, guard, deadline);
    byte[] shot = screenshot
        ? page.screenshot(new Page.ScreenshotOptions().setTimeout(left(deadline, "the screenshot")))
        : null;
    return new Visit(
        page.url(), response == null ? 0 : response.status(), page.title(), text, shot);
  }

  /** The milliseconds left before {@code deadline}; none left is the visit's timeout. */
  private static double left(long deadline, String what) {
    long ms = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
    if (ms <= 0)
      throw new BrowserSession.VisitFailure(new ToolFailure(
          ToolErrorCodes.TIMEOUT,
          "the page did not let " + what + " be read in time (a script may keep it busy)",
          "/timeout_s",
          null));
    return ms;
  }

  private static ToolFailure navigationFailure(NavigationGuard guard, PlaywrightException e) {
    if (guard.cancelled())
      return new ToolFailure(ToolErrorCodes.CANCELLED, "the visit was cancelled");
    PlaywrightException cause = guard.failure() != null ? guard.failure() : e;
    List<String> blocked = guard.blocked();
    @Nullable JsonNode details = blocked.isEmpty() ? null : Json.tree(Map.of("blocked", blocked));
    // A page that ran out of time did so on its own unless Steward stopped where it was going: a
    // refused image, beacon or the browser's own background connection leaves a page loading.
    if (!guard.navigationStopped() && cause instanceof TimeoutError)
      return new ToolFailure(
          ToolErrorCodes.TIMEOUT,
          "the page did not load in time: " + BrowserSession.describe(cause),
          "/timeout_s",
          details);
    if (!blocked.isEmpty()) {
      return new ToolFailure(
          ToolErrorCodes.SCOPE_DENIED,
          // The stopped navigation says why, not a request of the page's or the browser's own.
          "Steward stopped the page: "
              + java.util.Objects.requireNonNullElse(
                  guard.firstNavigationStopped(), blocked.get(0)),
          "/url",
          details);
    }
    String message = BrowserSession.describe(cause);
    return new ToolFailure(
        ToolErrorCodes.EXECUTION_ERROR, "could not open the page: " + message, "/url", null);
  }

  /** The page's readable text; a navigation in progress destroys the context, so retry after it. */
  private static String readText(Page page, NavigationGuard guard, long deadline) {
    PlaywrightException last = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      if (guard.cancelled())
        throw new BrowserSession.VisitFailure(
            new ToolFailure(ToolErrorCodes.CANCELLED, "the visit was cancelled"));
      try {
        page.waitForLoadState(
            LoadState.LOAD,
            new Page.WaitForLoadStateOptions().setTimeout(left(deadline, "its text")));
        return page.innerText(
            "body", new Page.InnerTextOptions().setTimeout(left(deadline, "its text")));
      } catch (PlaywrightException e) {
        last = e;
      }
    }
    throw new BrowserSession.VisitFailure(new ToolFailure(
        ToolErrorCodes.EXECUTION_ERROR,
        "could not read the page: "
            + (last == null ? "no attempt" : BrowserSession.describe(last))));
  }

  @Override
  public String summarize(JsonNode args, JsonNode value) {
    return "opened " + value.path("final_url").asText() + " ("
        + value.path("status").asInt() + "), "
        + Counted.of(value.path("text").asText().length(), "character", "characters");
  }

  @Override
  public void close() {
    session.close();
  }
}
