package dev.steward.app.settings;

import dev.steward.protocol.method.Mcp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What each server's card has shown of its tools, so that Accept accepts what the user read. A
 * server can describe its tools anew at any moment (its list changed, or it restarted), and the
 * card is made again at once: a click aimed at the old words would accept the new ones. So Accept
 * sends the tools of the card the user clicked on, not of the newest list; it waits {@link
 * #SETTLE} after any change of a server's tools; and a change while tools waited for review is said
 * on the card. Used on the UI thread only.
 */
final class McpReviews {

  /** How long Accept waits after a server's tools change. */
  static final Duration SETTLE = Duration.ofSeconds(2);

  /**
   * A server's card as it is to be shown: whether its tools changed since they were first shown
   * for review, and how long until Accept may be clicked.
   */
  record Review(boolean changedWhileLooking, Duration acceptIn) {}

  /**
   * A server's tools as last shown, when they last changed, whether any waited for review, and
   * whether they changed while some did.
   */
  private record Shown(
      List<Mcp.Seen> seen,
      @Nullable Instant changedAt,
      boolean reviewing,
      boolean changedWhileLooking) {}

  private final Clock clock;
  private final Map<String, Shown> shown = new HashMap<>();

  McpReviews(Clock clock) {
    this.clock = clock;
  }

  /** Takes in the servers' newest list, as the cards will show it. */
  void show(List<Mcp.Server> servers) {
    shown.keySet().retainAll(servers.stream().map(Mcp.Server::name).toList());
    for (Mcp.Server server : servers) {
      List<Mcp.Seen> seen = server.shown();
      // A server starting or stopped lists nothing, and its card offers nothing to accept.
      if (seen.isEmpty()) continue;
      boolean waiting = server.tools().stream().anyMatch(t -> !Mcp.Tool.ACCEPTED.equals(t.pin()));
      Shown was = shown.get(server.name());
      Shown now;
      if (was == null) {
        now = new Shown(seen, null, waiting, false);
      } else if (was.seen().equals(seen)) {
        now = new Shown(seen, was.changedAt(), waiting, waiting && was.changedWhileLooking());
      } else {
        now = new Shown(
            seen,
            clock.instant(),
            waiting,
            waiting && (was.reviewing() || was.changedWhileLooking()));
      }
      shown.put(server.name(), now);
    }
  }

  Review review(String server) {
    Shown s = shown.get(server);
    if (s == null) return new Review(false, Duration.ZERO);
    return new Review(s.changedWhileLooking(), acceptIn(s));
  }

  private Duration acceptIn(Shown s) {
    Instant changed = s.changedAt();
    if (changed == null) return Duration.ZERO;
    Duration left = Duration.between(clock.instant(), changed.plus(SETTLE));
    return left.isNegative() ? Duration.ZERO : left;
  }

  /**
   * Why Accept on the card that shows {@code onScreen} may not go now, or null when it may: the
   * server has described its tools anew since that card was made, or did so moments ago.
   */
  @Nullable
  String refusal(Mcp.Server onScreen) {
    Shown s = shown.get(onScreen.name());
    if (s == null || !s.seen().equals(onScreen.shown()))
      return "“" + onScreen.name() + "” changed its tools while you were looking; look at the new"
          + " words and accept again.";
    if (!acceptIn(s).isZero())
      return "“" + onScreen.name() + "” changed its tools moments ago; read them again, then"
          + " accept.";
    return null;
  }
}
