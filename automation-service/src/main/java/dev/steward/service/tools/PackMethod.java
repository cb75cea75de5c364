package dev.steward.service.tools;

import com.fasterxml.jackson.databind.JsonNode;
import org.jspecify.annotations.Nullable;

/**
 * A JSON-RPC method a pack offers the window (its settings: a server's state, accepting a tool).
 * Only the ui role may call it: it configures what the model's tools are. {@code said}: for a
 * method that changes something, what a call did, in words for the audit log's {@code policy} row.
 */
public record PackMethod(
    String name, Handler handler, @Nullable Said said) {

  /** A method that changes nothing the audit log would need (a state, a check). */
  public PackMethod(String name, Handler handler) {
    this(name, handler, null);
  }

  public PackMethod {
    if (name.indexOf('.') < 1 || name.endsWith(".")) {
      throw new IllegalArgumentException("a pack's method is named <pack>.<verb>: " + name);
    }
  }

  /**
   * What a call that succeeded did, from its params and its answer: names only, never a secret's
   * value; null when it changed nothing.
   */
  @FunctionalInterface
  public interface Said {
    @Nullable
    String say(JsonNode params, Object answer);
  }

  /**
   * A name a person gave (a server, a value, a tool), quoted in a {@link Said} sentence when it is
   * a plain word; else only said to be there (a token pasted where a name belongs is not kept).
   */
  public static String quoted(String name) {
    return name.matches("[\\p{L}\\p{N}][\\p{L}\\p{N} ._-]{0,63}")
        ? "\"" + name + "\""
        : "(a name not quoted)";
  }

  /** Answers the method's params; a {@link ToolFailure} is the caller's error, sent as such. */
  @FunctionalInterface
  public interface Handler {
    Object handle(JsonNode params) throws ToolFailure;
  }
}
