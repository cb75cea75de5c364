package dev.steward.protocol.method;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * {@code confirm.grant} (ui role): mint a confirm token. Either {@code calls} (exact calls,
 * single-use) or {@code tools} with a {@code scope} (low/medium tools only, optionally reusable).
 */
public final class Grant {

  private Grant() {}

  /**
   * One exact call. {@code targets} (beyond SPEC §3.1, optional): the real paths the dialog showed
   * for it (the {@code paths} of the dialog's own preview of these arguments, never the model's
   * earlier preflight); the service mints no token when the call would reach others now (a link
   * pointed elsewhere, the folders changed while the user looked). {@code fingerprints} (beyond
   * SPEC §3.1, optional): the {@code fingerprints} of that same preview; no token is minted when a
   * file shown has changed or another has taken its place since.
   */
  public record Call(
      String tool,
      JsonNode args,
      @Nullable List<String> targets,
      @Nullable List<String> fingerprints) {
    /** The wire's form: the one a client's JSON is read into. */
    @com.fasterxml.jackson.annotation.JsonCreator
    public Call {}

    public Call(String tool, JsonNode args) {
      this(tool, args, null, null);
    }

    public Call(String tool, JsonNode args, @Nullable List<String> targets) {
      this(tool, args, targets, null);
    }
  }

  public record Scope(List<String> paths) {}

  /**
   * {@code error.data.reason} (beyond SPEC §3.1) of a grant refused because what the dialog showed
   * for a call ({@link Call#targets}, {@link Call#fingerprints}) is no longer so: shown again as it
   * is now, the user can decide again.
   */
  public static final String SHOWN_CHANGED = "shown_changed";

  /**
   * One path of a grant refused for {@link #SHOWN_CHANGED} ({@code error.data.changed[]}): the
   * path as the dialog showed it, and how it changed since — {@code written} (in place), {@code
   * replaced} (another file in its place), {@code gone}, {@code made} (a file where there was
   * none), {@code changed_inside} (a folder to be taken away), {@code unreadable}, or {@code
   * elsewhere} (a link or the folders now lead the call to another path).
   */
  public record Changed(String tool, String path, String how) {

    /** {@link #how} as words that follow the path in a sentence ("notes.txt was written"). */
    public String words() {
      return switch (how) {
        case "written" -> "was written (or replaced by a file that took its place)";
        case "replaced" -> "was replaced (another file or folder is there now)";
        case "gone" -> "is gone";
        case "made" -> "was made";
        case "changed_inside" -> "changed inside (something in it was added, removed or written)";
        case "unreadable" -> "can no longer be read";
        case "elsewhere" -> "now leads elsewhere (a link or the folders changed)";
        default -> "changed";
      };
    }

    /**
     * Each change as a clause ("…/plan.txt is gone"), joined by semicolons; a path's hidden
     * characters written out, so that a name cannot reverse or break the sentence it is in.
     */
    public static String said(List<Changed> changes) {
      return changes.stream()
          .map(c -> dev.steward.protocol.util.ShownText.escaped(c.path()) + " " + c.words())
          .collect(java.util.stream.Collectors.joining("; "));
    }
  }

  /** Whether {@code e} is a grant refused for {@link #SHOWN_CHANGED}. */
  public static boolean shownChanged(Throwable e) {
    com.fasterxml.jackson.databind.JsonNode data = shownChangedData(e);
    return data != null && SHOWN_CHANGED.equals(data.path("reason").asText(null));
  }

  /** What changed, of a grant refused for {@link #SHOWN_CHANGED}; empty when it does not say. */
  public static List<Changed> changes(Throwable e) {
    com.fasterxml.jackson.databind.JsonNode data = shownChangedData(e);
    if (data == null || !SHOWN_CHANGED.equals(data.path("reason").asText(null))) return List.of();
    List<Changed> out = new java.util.ArrayList<>();
    for (com.fasterxml.jackson.databind.JsonNode c : data.path("changed")) {
      if (c.path("tool").isTextual()
          && c.path("path").isTextual()
          && c.path("how").isTextual())
        out.add(new Changed(
            c.get("tool").asText(), c.get("path").asText(), c.get("how").asText()));
    }
    return out;
  }

  private static com.fasterxml.jackson.databind.@Nullable JsonNode shownChangedData(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof dev.steward.protocol.client.ClientException c) {
        dev.steward.protocol.jsonrpc.RpcError error = c.rpcError();
        return error == null ? null : error.data();
      }
    }
    return null;
  }

  /**
   * With {@code requestId}, the token answers an {@code approval.requested}: it goes to the call
   * that waits, never back to the client that asked.
   */
  public record Params(
      String traceId,
      @Nullable List<Call> calls,
      @Nullable List<String> tools,
      @Nullable Scope scope,
      @Nullable Integer ttlS,
      @Nullable Boolean reusable,
      @Nullable String requestId) {

    public Params(
        String traceId,
        @Nullable List<Call> calls,
        @Nullable List<String> tools,
        @Nullable Scope scope,
        @Nullable Integer ttlS,
        @Nullable Boolean reusable) {
      this(traceId, calls, tools, scope, ttlS, reusable, null);
    }
  }

  public record Result(String confirmToken, String tokenId, Instant expiresAt) {}

  /** {@code confirm.revoke} (ui role). */
  public record RevokeParams(String tokenId) {}

  public record RevokeResult(boolean revoked) {}
}
