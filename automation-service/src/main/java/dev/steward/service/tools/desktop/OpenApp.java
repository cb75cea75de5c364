package dev.steward.service.tools.desktop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.scope.Access;
import dev.steward.service.scope.ScopeDenied;
import dev.steward.service.scope.UrlCheck;
import dev.steward.service.tools.BaseTool;
import dev.steward.service.tools.HostUse;
import dev.steward.service.tools.PathUse;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolDefinitions;
import dev.steward.service.tools.ToolFailure;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * {@code apps.open}: starts an app from the user's allowlist ({@code apps} in policy.json), with
 * an optional target — a file that passes the path scope, or an http(s) URL — substituted for
 * {@code {target}} as exactly one argument. Started with {@link ProcessBuilder}, never through a
 * shell, so no character in a target can become a command. The result says the process started
 * (and its pid), not what it did.
 */
public final class OpenApp extends BaseTool {

  static final String TARGET = "{target}";

  private static final ToolDefinition DEFINITION =
      ToolDefinitions.load(OpenApp.class, "apps.open.json");

  private final Supplier<PolicyDocument> policy;

  /** {@code policy} gives the policy in force at each call (the allowlist can change at any time). */
  public OpenApp(Supplier<PolicyDocument> policy) {
    super(DEFINITION);
    this.policy = policy;
  }

  /**
   * The app started does with its target what it does — a browser fetches what a page names —
   * and a grant for a folder would cover every app on the list: each launch is clicked for.
   */
  @Override
  public boolean boundByItsFolders() {
    return false;
  }

  @Override
  public List<PathUse> paths(JsonNode args) {
    String target = args.path("target").asText("");
    if (target.isEmpty() || UrlCheck.looksLikeUrl(target)) return List.of();
    return List.of(new PathUse("/target", target, Access.READ));
  }

  @Override
  public List<HostUse> hosts(JsonNode args) {
    String target = args.path("target").asText("");
    return UrlCheck.looksLikeUrl(target) ? List.of(new HostUse("/target", target)) : List.of();
  }

  /** An app on the allowlist, with a target it takes and may open. */
  @Override
  public void checkNow(JsonNode args, ToolContext ctx) throws ToolFailure {
    command(args, ctx);
  }

  @Override
  public Optional<JsonNode> preview(JsonNode args, ToolContext ctx) {
    ObjectNode p = Json.object();
    p.put("operation", "open");
    p.put("app", args.path("app").asText());
    try {
      p.set("argv", Json.tree(command(args, ctx)));
    } catch (ToolFailure e) {
      // the policy changed after the check: the call is refused when it runs
      p.put("refused", e.getMessage());
    }
    return Optional.of(p);
  }

  @Override
  public JsonNode run(JsonNode args, ToolContext ctx) throws ToolFailure {
    List<String> argv = command(args, ctx);
    ProcessBuilder pb = new ProcessBuilder(argv)
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    try {
      Process p = pb.start();
      ObjectNode result = Json.object();
      result.put("pid", p.pid());
      return result;
    } catch (IOException e) {
      throw new ToolFailure(
          ToolErrorCodes.UNAVAILABLE,
          "cannot start \"" + argv.get(0) + "\": " + e.getMessage(),
          "/app",
          null);
    }
  }

  /** The exact argv: the allowlisted command with the checked target as one argument. */
  List<String> command(JsonNode args, ToolContext ctx) throws ToolFailure {
    String id = args.path("app").asText();
    PolicyDocument.AppEntry app = policy.get().apps().stream()
        .filter(a -> a.id().equals(id))
        .findFirst()
        .orElseThrow(() -> new ToolFailure(
            ToolErrorCodes.SCOPE_DENIED,
            "\"" + id + "\" is not in your app allowlist",
            "/app",
            null));
    String target = null;
    if (args.has("target")) {
      String raw = args.get("target").asText();
      if (UrlCheck.looksLikeUrl(raw)) {
        try {
          target = UrlCheck.check(raw, policy.get().hosts().allowPrivate()).toString();
        } catch (ScopeDenied e) {
          throw new ToolFailure(ToolErrorCodes.SCOPE_DENIED, e.getMessage(), "/target", null);
        }
      } else {
        target = ctx.path("/target").real().toString();
      }
      if (!app.command().contains(TARGET)) {
        throw new ToolFailure(
            ToolErrorCodes.VALIDATION_ERROR, "\"" + id + "\" takes no target", "/target", null);
      }
    }
    List<String> argv = new ArrayList<>();
    for (String part : app.command()) {
      if (part.equals(TARGET)) {
        if (target != null) argv.add(target);
      } else {
        argv.add(part);
      }
    }
    return argv;
  }

  @Override
  public String summarize(JsonNode args, JsonNode value) {
    return "started " + args.path("app").asText() + " (pid " + value.path("pid").asLong() + ")";
  }
}
