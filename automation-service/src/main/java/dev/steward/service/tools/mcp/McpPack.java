package dev.steward.service.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.tools.PackContext;
import dev.steward.service.tools.PackMethod;
import dev.steward.service.tools.Tool;
import dev.steward.service.tools.ToolFailure;
import dev.steward.service.tools.ToolFamily;
import dev.steward.service.tools.ToolPack;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The pack of external MCP servers (SPEC §12). Its tools are those the servers list; the window
 * reviews them with {@code mcp.servers} and accepts them with {@code mcp.accept}.
 */
public final class McpPack implements ToolPack {

  public static final String SERVERS = "mcp.servers";
  public static final String ACCEPT = "mcp.accept";

  private @Nullable McpServers servers;

  @Override
  public String name() {
    return "mcp";
  }

  @Override
  public List<Tool> tools(PackContext context) {
    return List.of();
  }

  @Override
  public List<ToolFamily> families(PackContext context) {
    McpServers s = new McpServers(
        context.policy(),
        context.data().resolve("mcp"),
        context.userHome(),
        context.environment(),
        context.toolsChanged());
    servers = s;
    context.onPolicyChange().accept(s::follow);
    return List.of(s);
  }

  @Override
  public void start() {
    McpServers s = servers;
    if (s != null) s.follow();
  }

  @Override
  public List<PackMethod> methods() {
    return List.of(
        new PackMethod(SERVERS, params -> describe()), new PackMethod(ACCEPT, this::accept));
  }

  private McpServers servers() throws ToolFailure {
    McpServers s = servers;
    if (s == null) throw new ToolFailure(ToolErrorCodes.UNAVAILABLE, "the MCP pack is not running");
    return s;
  }

  /** Each server with its state, the end of its stderr log and its tools as the user reviews them. */
  private JsonNode describe() throws ToolFailure {
    ObjectNode out = Json.object();
    ArrayNode list = out.putArray("servers");
    for (ServerLink link : servers().links()) {
      ObjectNode s = list.addObject();
      s.put("name", link.name());
      s.put("transport", link.entry().url() != null ? "http" : "stdio");
      s.put("state", link.state().wire());
      link.problem().ifPresent(p -> s.put("problem", p));
      long pid = link.pid();
      if (pid > 0) s.put("pid", pid);
      s.put("log", link.log().toString());
      ArrayNode tail = s.putArray("stderr_tail");
      link.stderrTail(20).forEach(tail::add);
      ArrayNode tools = s.putArray("tools");
      link.tools().forEach((name, tool) -> {
        McpTool.Listing l = tool.listing();
        ToolDefinition d = tool.definition();
        ObjectNode t = tools.addObject();
        t.put("name", name);
        t.put("server_name", l.remoteName());
        if (l.title() != null) t.put("title", l.title());
        t.put("description", l.description());
        t.set("input_schema", l.inputSchema());
        t.put("read_only", l.readOnly());
        t.put("sends", l.openWorld());
        t.put("risk", d.risk().wire());
        t.put("confirmation", d.confirmation().wire());
        t.put("pin", l.standing().wire());
        t.put("offered", tool.offered());
        ArrayNode flags = t.putArray("flags");
        l.flags().forEach(flags::add);
        l.schemaProblem().ifPresent(p -> t.put("problem", p));
      });
    }
    return out;
  }

  /** {@code {server, tools?}}: accepts the named tools (by the server's names), or all of them. */
  private JsonNode accept(JsonNode params) throws ToolFailure {
    String server = params.path("server").asText("");
    if (server.isEmpty())
      throw new ToolFailure(
          ToolErrorCodes.VALIDATION_ERROR, "name the \"server\" whose tools you accept");
    ServerLink link = servers()
        .link(server)
        .orElseThrow(() -> new ToolFailure(
            ToolErrorCodes.NOT_FOUND, "there is no MCP server \"" + server + "\" in the policy"));
    if (link.tools().isEmpty())
      throw new ToolFailure(
          ToolErrorCodes.UNAVAILABLE,
          "the MCP server \"" + server + "\" has listed no tools yet ("
              + link.problem().orElse("it lists none") + ")");
    Set<String> names = new HashSet<>();
    JsonNode asked = params.path("tools");
    if (asked.isArray()) asked.forEach(n -> names.add(n.asText()));
    Set<String> known = new HashSet<>();
    link.tools().values().forEach(t -> known.add(t.listing().remoteName()));
    for (String n : names) {
      if (!known.contains(n))
        throw new ToolFailure(
            ToolErrorCodes.NOT_FOUND,
            "the MCP server \"" + server + "\" has no tool \"" + n + "\"");
    }
    ObjectNode out = Json.object();
    ArrayNode accepted = out.putArray("accepted");
    link.accept(names).forEach(accepted::add);
    return out;
  }

  @Override
  public void close() {
    McpServers s = servers;
    if (s != null) s.close();
  }
}
