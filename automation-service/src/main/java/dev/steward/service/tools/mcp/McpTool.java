package dev.steward.service.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.tool.Confirmation;
import dev.steward.protocol.tool.Risk;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.util.Counted;
import dev.steward.service.tools.Tool;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolFailure;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * One tool of an external MCP server, as the gate sees it. Its risk is the user's to set: by
 * default a tool the server marks read-only is {@code low} and runs unasked, any other {@code
 * medium} and always confirmed (SPEC §12) — the server's annotations are only hints, so the user's
 * override replaces them rather than only tightening them. Its result is untrusted content.
 */
final class McpTool implements Tool {

  static final Duration TIME_LIMIT = Duration.ofMinutes(2);

  private static final JsonNode RESULT_SCHEMA =
      parse("{\"type\":\"object\",\"properties\":{\"content\":{\"type\":\"array\"},"
          + "\"structured_content\":{},\"truncated\":{\"type\":\"boolean\"},"
          + "\"note\":{\"type\":\"string\"}},\"required\":[\"content\",\"truncated\"]}");

  /** What the server said about the tool, as it was listed. */
  record Listing(
      String remoteName,
      @Nullable String title,
      String description,
      JsonNode inputSchema,
      boolean readOnly,
      boolean openWorld,
      String hash,
      Pins.Standing standing,
      List<String> flags,
      Optional<String> schemaProblem) {
    Listing {
      flags = List.copyOf(flags);
    }

    Listing withStanding(Pins.Standing now) {
      return new Listing(
          remoteName,
          title,
          description,
          inputSchema,
          readOnly,
          openWorld,
          hash,
          now,
          flags,
          schemaProblem);
    }
  }

  private final String name;
  private final ServerLink server;
  private final Listing listing;
  private final Supplier<PolicyDocument> policy;
  private final ToolDefinition declared;

  McpTool(String name, ServerLink server, Listing listing, Supplier<PolicyDocument> policy) {
    this.name = name;
    this.server = server;
    this.listing = listing;
    this.policy = policy;
    this.declared = new ToolDefinition(
        name,
        listing.description(),
        listing.inputSchema(),
        RESULT_SCHEMA,
        listing.readOnly() ? Risk.LOW : Risk.MEDIUM,
        listing.readOnly() ? Confirmation.NEVER : Confirmation.ALWAYS,
        List.of(),
        !listing.readOnly(),
        listing.openWorld(),
        false);
  }

  Listing listing() {
    return listing;
  }

  ServerLink server() {
    return server;
  }

  /** The definition with the user's rating in place of the server's hints. */
  @Override
  public ToolDefinition definition() {
    PolicyDocument.ToolOverride o = policy.get().overrides().get(name);
    if (o == null || (o.risk() == null && o.confirmation() == null)) return declared;
    return new ToolDefinition(
        name,
        declared.description(),
        declared.argsSchema(),
        declared.resultSchema(),
        o.risk() != null ? o.risk() : declared.risk(),
        o.confirmation() != null ? o.confirmation() : declared.confirmation(),
        declared.scopes(),
        declared.mutates(),
        declared.sends(),
        false);
  }

  @Override
  public String name() {
    return name;
  }

  /** Listed to the model only once the user accepted the tool as the server now describes it. */
  boolean offered() {
    return listing.standing() == Pins.Standing.ACCEPTED
        && listing.schemaProblem().isEmpty();
  }

  @Override
  public Optional<String> unavailable() {
    // The problem quotes the server's schema: said to the user in Settings, never to the model.
    if (listing.schemaProblem().isPresent())
      return Optional.of(name + " has an input schema Steward does not accept, so it stays off"
          + " (Settings → MCP servers says why)");
    switch (listing.standing()) {
      case NEW:
        return Optional.of(name + " is new and waits for your review (Settings → MCP servers)");
      case CHANGED:
        return Optional.of("the MCP server “" + server.name() + "” changed what " + name
            + " says it does since you accepted it; it is off until you review it again"
            + " (Settings → MCP servers)");
      default:
        return server.unavailableForModel();
    }
  }

  @Override
  public Optional<String> taintSource(JsonNode args, ToolContext ctx) {
    return Optional.of("the MCP server “" + server.name() + "” (" + listing.remoteName() + ")");
  }

  @Override
  public Duration timeLimit() {
    return TIME_LIMIT;
  }

  @Override
  public JsonNode run(JsonNode args, ToolContext ctx) throws ToolFailure {
    return server.call(listing.remoteName(), args, ctx);
  }

  @Override
  public String summarize(JsonNode args, JsonNode value) {
    int items = value.path("content").size();
    return "ok: " + Counted.of(items, "item", "items")
        + (value.path("truncated").asBoolean() ? " (truncated)" : "");
  }

  private static JsonNode parse(String json) {
    try {
      return dev.steward.protocol.json.Json.parse(json);
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
