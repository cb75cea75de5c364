package dev.steward.service.tools;

import java.net.URI;
import java.util.Map;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;

/**
 * Where on the service's loopback port a browser is sent back to after the user signs in
 * somewhere (OAuth's redirect: {@code http://127.0.0.1:<port>/oauth/callback/…}, an address under
 * it for each authorization server). It needs
 * no secret — a browser has none — so what arrives there proves itself: the pack that asked for
 * the sign-in answers only a {@code state} it made and has not seen come back yet.
 */
public final class BrowserReturns {

  public static final String PATH = "/oauth/callback";

  /**
   * What the browser shows: a short page in Steward's words (nothing of the query echoed); and,
   * where the user's coming back did something ({@code act}, the method that began it, and {@code
   * said}, what it did in words, without a secret), what the audit log keeps of it.
   */
  public record Page(
      int status,
      String title,
      String message,
      @Nullable String act,
      @Nullable String said) {

    public Page(int status, String title, String message) {
      this(status, title, message, null, null);
    }
  }

  /** Keeps a user's act in the audit log; false when the log could not. */
  @FunctionalInterface
  public interface Acts {
    boolean record(String act, String said);
  }

  private volatile int port;
  private volatile @Nullable BiFunction<String, Map<String, String>, Page> handler;
  private volatile Acts acts = (act, said) -> false;

  /** Called once the service's port is known. */
  public void bindPort(int port) {
    this.port = port;
  }

  /** The address to send a browser back to, once the service listens. */
  public URI address() {
    int p = port;
    if (p == 0) throw new IllegalStateException("the service does not listen yet");
    return URI.create("http://127.0.0.1:" + p + PATH);
  }

  /**
   * Who answers what comes back (the path, which is {@link #PATH} or under it, and the query);
   * one pack asks for sign-ins.
   */
  public void answerWith(BiFunction<String, Map<String, String>, Page> handler) {
    this.handler = handler;
  }

  /** Whether a request's path is this address or under it. */
  public static boolean ours(String path) {
    return path.equals(PATH) || path.startsWith(PATH + "/");
  }

  /** Where what a coming back did is kept: the service's audit log, once it is open. */
  public void recordWith(Acts acts) {
    this.acts = acts;
  }

  /** A browser came back to this path with this query. */
  public Page arrive(String path, Map<String, String> query) {
    var h = handler;
    if (h == null)
      return new Page(404, "Nothing to sign in", "Steward is not waiting for a sign-in.");
    Page page = h.apply(path, query);
    String act = page.act();
    String said = page.said();
    if (act == null || said == null || acts.record(act, said)) return page;
    return new Page(
        page.status(),
        page.title(),
        page.message() + " Steward's audit log could not record it.",
        act,
        said);
  }
}
