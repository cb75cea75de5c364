package dev.steward.service.tools.browser;

import com.microsoft.playwright.APIResponse;
import com.microsoft.playwright.PlaywrightException;
import com.microsoft.playwright.Request;
import com.microsoft.playwright.Route;
import dev.steward.service.scope.HostScope;
import dev.steward.service.scope.PinningProxy;
import dev.steward.service.scope.ScopeDenied;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Decides every request of one visit (SPEC §5). A navigation — the first one, a link, a form's
 * post, a script's {@code location = …}, a meta refresh, a frame — may go only to the host the
 * user approved or to an allowlisted host, over http(s), and never to a private address unless
 * the policy allows it. Chromium follows a redirect it is given without asking the route, so a
 * navigation is fetched here one hop at a time, whatever its method, and a redirect reaches the
 * browser only once its target is checked (the browser's next request for it comes here again).
 * Other requests (images, scripts) may go anywhere public. Every connection of the visit — these,
 * the redirects of subresources, WebSockets — goes through {@link PinningProxy}, which connects
 * only to the address this guard {@linkplain #pin pinned} for the host. Whatever leaves the scope
 * is stopped, not followed, and recorded.
 */
final class NavigationGuard implements PinningProxy.Pins {

  private static final Set<String> INERT_SCHEMES = Set.of("data", "blob", "about");
  private static final int MAX_REDIRECTS = 10;

  private final HostScope scope;
  private final String approvedHost;
  private final List<String> blocked = new java.util.concurrent.CopyOnWriteArrayList<>();
  /** Each host's address for this visit, or why it has none: looked up once, then pinned. */
  private final Map<String, Object> pinned = new java.util.concurrent.ConcurrentHashMap<>();

  private volatile boolean cancelled;

  /** Top documents let through, and whether one of them may navigate on its own. */
  private volatile boolean documentSeen;

  private volatile boolean selfNavigating;
  /** The first navigation of the visit that was stopped, with why: the page failed by Steward. */
  private volatile @org.jspecify.annotations.Nullable String firstStop;

  private volatile @org.jspecify.annotations.Nullable PlaywrightException failure;

  private final double fetchTimeoutMs;
  /** The page's own requests, too, go only to the approved host and allowlisted hosts. */
  private final boolean kept;

  NavigationGuard(HostScope scope, String approvedHost, long fetchTimeoutMs, boolean kept) {
    this.scope = scope;
    this.approvedHost = approvedHost;
    this.fetchTimeoutMs = fetchTimeoutMs;
    this.kept = kept;
  }

  void cancel() {
    cancelled = true;
  }

  boolean cancelled() {
    return cancelled;
  }

  /** Why fetching a navigation failed (the browser only sees "failed"), or null. */
  @org.jspecify.annotations.Nullable
  PlaywrightException failure() {
    return failure;
  }

  /** Whether a navigation was stopped (not only a page's own request or connection). */
  boolean navigationStopped() {
    return firstStop != null;
  }

  /** The first navigation stopped, with why: what failed the page; or null. */
  @org.jspecify.annotations.Nullable
  String firstNavigationStopped() {
    return firstStop;
  }

  /** The navigations and requests that were stopped, with why. */
  List<String> blocked() {
    return List.copyOf(blocked);
  }

  void handle(Route route) {
    Request request = route.request();
    if (cancelled) {
      route.abort();
      return;
    }
    if (request.isNavigationRequest()) {
      navigate(route, request);
    } else {
      String why = subresourceRefusal(request.url());
      if (why == null) {
        route.resume();
      } else {
        blocked.add(request.url() + " — " + why);
        route.abort("blockedbyclient");
      }
    }
  }

  private void navigate(Route route, Request request) {
    String url = request.url();
    String why = navigationRefusal(url);
    if (why != null) {
      stop(route, url, why);
      return;
    }
    // Follow redirects here, hop by hop and whatever the method, so none is taken unchecked. The
    // first hop is the request as the page made it (method, headers, body); a 307 or 308 keeps
    // them, any other redirect turns the request into a GET, as browsers do.
    String current = url;
    String method = request.method();
    for (int hop = 0; hop <= MAX_REDIRECTS; hop++) {
      APIResponse response;
      try {
        Route.FetchOptions fetch =
            new Route.FetchOptions().setMaxRedirects(0).setTimeout(fetchTimeoutMs);
        if (hop > 0) fetch.setUrl(current);
        if (hop > 0 && !method.equals(request.method()))
          fetch.setMethod(method).setPostData(new byte[0]);
        response = route.fetch(fetch);
      } catch (PlaywrightException e) {
        failure = e;
        route.abort(e instanceof com.microsoft.playwright.TimeoutError ? "timedout" : "failed");
        return;
      }
      String location = response.headers().get("location");
      if (response.status() < 300 || response.status() >= 400 || location == null) {
        if (current.equals(url)) {
          judgeDocument(request, response);
          route.fulfill(new Route.FulfillOptions().setResponse(response));
        } else {
          // Send the browser to the checked final address; it asks the route again for it.
          route.fulfill(
              new Route.FulfillOptions().setStatus(302).setHeaders(Map.of("location", current)));
        }
        return;
      }
      String next;
      try {
        next = new URI(current).resolve(location).toString();
      } catch (URISyntaxException | IllegalArgumentException e) {
        stop(route, location, "not a valid redirect address");
        return;
      }
      String refusal = navigationRefusal(next);
      if (refusal != null) {
        stop(route, next, "a redirect from " + current + " — " + refusal);
        return;
      }
      if (response.status() != 307 && response.status() != 308) method = "GET";
      current = next;
    }
    stop(route, current, "more than " + MAX_REDIRECTS + " redirects");
  }

  /**
   * Judged from the response the guard fetched itself (its body is at hand: Playwright's page-side
   * body of a response may wait without end for a finish that never comes).
   */
  private void judgeDocument(Request request, APIResponse response) {
    boolean may;
    try {
      // A popup's first request has no frame on this side yet, and asking for it throws.
      if (request.frame().parentFrame() != null) return;
      may = SelfNavigation.possible(response.headers(), response::body);
    } catch (RuntimeException e) {
      // Never thrown out of the handler: a route left unanswered holds the page.
      may = true;
    }
    if (may) selfNavigating = true;
    documentSeen = true;
  }

  /**
   * Whether the visit's page is known unable to navigate on its own: a top document was let
   * through, and none let through could ({@link SelfNavigation}).
   */
  boolean quietDocument() {
    return documentSeen && !selfNavigating;
  }

  /** "aborted" makes Chromium drop the navigation and keep the current page (no error page). */
  private void stop(Route route, String url, String why) {
    if (firstStop == null) firstStop = url + " — " + why;
    blocked.add(url + " — " + why);
    route.abort("aborted");
  }

  /** Why a navigation to {@code url} is refused, or null when it is in scope. */
  @org.jspecify.annotations.Nullable
  String navigationRefusal(String url) {
    URI uri;
    try {
      uri = scope.check(url);
    } catch (ScopeDenied e) {
      return e.getMessage();
    }
    String host = HostScope.asciiHost(uri);
    if (!host.equals(approvedHost) && !scope.allowlisted(uri)) {
      return host + " is not on your list of allowed hosts";
    }
    return privateRefusal(uri);
  }

  /** Why a page's own request (image, script, fetch) is refused, or null. */
  @org.jspecify.annotations.Nullable
  String subresourceRefusal(String url) {
    String scheme =
        url.contains(":") ? url.substring(0, url.indexOf(':')).toLowerCase(Locale.ROOT) : "";
    if (INERT_SCHEMES.contains(scheme)) return null;
    URI uri;
    try {
      uri = scope.check(url);
    } catch (ScopeDenied e) {
      return e.getMessage();
    }
    if (kept) {
      String host = HostScope.asciiHost(uri);
      if (!host.equals(approvedHost) && !scope.allowlisted(uri)) return keptRefusal(host);
    }
    return privateRefusal(uri);
  }

  private @org.jspecify.annotations.Nullable String privateRefusal(URI uri) {
    try {
      pin(HostScope.asciiHost(uri));
      return null;
    } catch (ScopeDenied.NotFound e) {
      return null; // nothing there: the connection fails and says so
    } catch (ScopeDenied e) {
      return e.getMessage();
    }
  }

  private static String keptRefusal(String host) {
    return host + " is not on your list of allowed hosts, and this conversation took in"
        + " untrusted content: the page's own requests stay with the hosts you allow";
  }

  /** The address every connection of this visit to {@code host} goes to; looked up once. */
  @Override
  public java.net.InetAddress pin(String host) throws ScopeDenied {
    if (cancelled) throw new ScopeDenied("the visit was cancelled");
    // Every connection comes here — a redirect the browser follows itself, a WebSocket — so the
    // kept visit's rule holds for what the route never sees too.
    String ascii = host.toLowerCase(Locale.ROOT);
    if (kept && !ascii.equals(approvedHost) && !scope.allowlistedHost(ascii))
      throw new ScopeDenied(keptRefusal(ascii));
    Object p = pinned.computeIfAbsent(host, h -> {
      try {
        return scope.address(h);
      } catch (ScopeDenied e) {
        return e;
      }
    });
    if (p instanceof java.net.InetAddress a) return a;
    throw (ScopeDenied) p;
  }

  @Override
  public void refused(String what) {
    blocked.add(what);
  }
}
