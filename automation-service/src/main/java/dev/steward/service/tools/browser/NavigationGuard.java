package dev.steward.service.tools.browser;

import com.microsoft.playwright.APIResponse;
import com.microsoft.playwright.PlaywrightException;
import com.microsoft.playwright.Request;
import com.microsoft.playwright.Route;
import dev.steward.service.scope.HostScope;
import dev.steward.service.scope.ScopeDenied;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Decides every request of one visit (SPEC §5). A navigation — the first one, a link, a script's
 * {@code location = …}, a meta refresh, a frame — may go only to the host the user approved or to
 * an allowlisted host, over http(s), and never to a private address unless the policy allows it.
 * Chromium follows redirects without asking the route, so navigations are fetched here one hop
 * at a time and each hop is checked before the browser sees it. Other requests (images, scripts)
 * may go anywhere public. Whatever leaves the scope is stopped, not followed, and recorded.
 */
final class NavigationGuard {

  private static final Set<String> INERT_SCHEMES = Set.of("data", "blob", "about");
  private static final int MAX_REDIRECTS = 10;

  private final HostScope scope;
  private final String approvedHost;
  private final List<String> blocked = new ArrayList<>();
  private final Map<String, String> resolved = new HashMap<>();
  private volatile boolean cancelled;
  private volatile @org.jspecify.annotations.Nullable PlaywrightException failure;

  private final double fetchTimeoutMs;

  NavigationGuard(HostScope scope, String approvedHost, long fetchTimeoutMs) {
    this.scope = scope;
    this.approvedHost = approvedHost;
    this.fetchTimeoutMs = fetchTimeoutMs;
  }

  void cancel() {
    cancelled = true;
  }

  boolean cancelled() {
    return cancelled;
  }

  /** Why fetching a navigation failed (the browser only sees "failed"), or null. */
  @org.jspecify.annotations.Nullable PlaywrightException failure() {
    return failure;
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
    if (!"GET".equals(request.method())) {
      route.resume(); // a form post to an allowed host: its redirects are rare and the host is in scope
      return;
    }
    // Follow redirects here, hop by hop, so none is taken without being checked.
    String current = url;
    for (int hop = 0; hop <= MAX_REDIRECTS; hop++) {
      APIResponse response;
      try {
        response = route.fetch(new Route.FetchOptions().setUrl(current).setMaxRedirects(0).setTimeout(fetchTimeoutMs));
      } catch (PlaywrightException e) {
        failure = e;
        route.abort(e instanceof com.microsoft.playwright.TimeoutError ? "timedout" : "failed");
        return;
      }
      String location = response.headers().get("location");
      if (response.status() < 300 || response.status() >= 400 || location == null) {
        if (current.equals(url)) {
          route.fulfill(new Route.FulfillOptions().setResponse(response));
        } else {
          // Send the browser to the checked final address; it asks the route again for it.
          route.fulfill(new Route.FulfillOptions().setStatus(302).setHeaders(Map.of("location", current)));
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
      current = next;
    }
    stop(route, current, "more than " + MAX_REDIRECTS + " redirects");
  }

  /** "aborted" makes Chromium drop the navigation and keep the current page (no error page). */
  private void stop(Route route, String url, String why) {
    blocked.add(url + " — " + why);
    route.abort("aborted");
  }

  /** Why a navigation to {@code url} is refused, or null when it is in scope. */
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
  String subresourceRefusal(String url) {
    String scheme = url.contains(":") ? url.substring(0, url.indexOf(':')).toLowerCase(Locale.ROOT) : "";
    if (INERT_SCHEMES.contains(scheme)) return null;
    URI uri;
    try {
      uri = scope.check(url);
    } catch (ScopeDenied e) {
      return e.getMessage();
    }
    return privateRefusal(uri);
  }

  private String privateRefusal(URI uri) {
    if (scope.allowsPrivate()) return null;
    String host = HostScope.asciiHost(uri);
    return resolved.computeIfAbsent(host, h -> {
      try {
        scope.checkResolved(uri);
        return "";
      } catch (ScopeDenied e) {
        return e.getMessage();
      }
    }).transform(s -> s.isEmpty() ? null : s);
  }
}
