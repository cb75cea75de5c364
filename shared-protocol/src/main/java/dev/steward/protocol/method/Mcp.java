package dev.steward.protocol.method;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The window's view of the external MCP servers (SPEC §12), ui role only. {@code mcp.servers}
 * answers each server of the policy's {@code mcp_servers} with its state ({@code starting},
 * {@code running}, {@code failed}, {@code stopped}), the end of its stderr log and its tools as
 * the user reviews them: {@code pin} is {@code accepted}, {@code new} or {@code changed} (the
 * server describes the tool differently from when the user accepted it), {@code hash} identifies
 * what was shown; only {@code offered} tools reach the model. {@code mcp.accept} accepts tools as
 * the user saw them, each by the server's own name and that hash: a tool the server described
 * anew in the meantime is not accepted but named in {@code changed}. {@code sandboxed} says
 * whether a stdio server runs where Steward's own folders are hidden from it (bubblewrap).
 * A server at a URL that answers 401 is {@code sign_in_needed} until the user signs in ({@code
 * mcp.sign_in}: OAuth in the user's browser; {@code signedIn} says whether tokens are kept, never
 * what they are); {@code mcp.sign_out} forgets them.
 */
public final class Mcp {

  private Mcp() {}

  public static final String SERVERS = "mcp.servers";
  public static final String ACCEPT = "mcp.accept";
  public static final String SIGN_IN = "mcp.sign_in";
  public static final String SIGN_OUT = "mcp.sign_out";

  /**
   * Sets one of a server's kept values (an {@code env} value of a server started here, a header of
   * one at a URL) or, with a null value, removes it; ui role only. The answer names (never shows)
   * the values kept for the server now.
   */
  public static final String SET_VALUE = "mcp.set_value";

  public record ServersResult(List<Server> servers) {}

  public record Server(
      String name,
      String transport,
      String state,
      @Nullable String problem,
      @Nullable Long pid,
      String log,
      List<String> stderrTail,
      List<Tool> tools,
      @Nullable Boolean sandboxed,
      @Nullable List<String> keptEnv,
      @Nullable Boolean signedIn) {

    /** The state of a server at a URL that waits for the user to sign in. */
    public static final String SIGN_IN_NEEDED = "sign_in_needed";

    /** Every tool as shown here, the way {@code mcp.accept} takes them. */
    public List<Seen> shown() {
      return tools.stream().map(t -> new Seen(t.serverName(), t.hash())).toList();
    }
  }

  public record Tool(
      String name,
      String serverName,
      @Nullable String title,
      String description,
      JsonNode inputSchema,
      boolean readOnly,
      boolean sends,
      String risk,
      String confirmation,
      String pin,
      String hash,
      boolean offered,
      List<String> flags,
      @Nullable String problem) {

    public static final String ACCEPTED = "accepted";
    public static final String NEW = "new";
    public static final String CHANGED = "changed";
  }

  /** A tool as the user saw it: the server's name for it and the hash shown with it. */
  public record Seen(String name, String hash) {}

  public record AcceptParams(String server, List<Seen> tools) {}

  public record AcceptResult(List<String> accepted, List<String> changed) {}

  /**
   * Starts a sign-in to a server at a URL; {@code clientId} (and {@code clientSecret}) only where
   * its authorization server does not let Steward register itself. Answers the address to open in
   * the user's browser, which comes back to the service when the user has signed in.
   */
  public record SignInParams(
      String server, @Nullable String clientId, @Nullable String clientSecret) {}

  public record SignInResult(String authorizationUrl) {}

  /** Forgets a server's tokens; the server asks for a sign-in again. */
  public record SignOutParams(String server) {}

  public record SignOutResult(boolean signedOut) {}

  public record SetValueParams(
      String server, String name, @Nullable String value) {}

  public record SetValueResult(List<String> names) {}
}
