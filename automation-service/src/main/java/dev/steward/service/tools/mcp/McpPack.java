package dev.steward.service.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Mcp;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.tools.PackContext;
import dev.steward.service.tools.PackMethod;
import dev.steward.service.tools.PackSecrets;
import dev.steward.service.tools.SecretTable;
import dev.steward.service.tools.Tool;
import dev.steward.service.tools.ToolFailure;
import dev.steward.service.tools.ToolFamily;
import dev.steward.service.tools.ToolPack;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The pack of external MCP servers (SPEC §12). Its tools are those the servers list; the window
 * reviews them with {@code mcp.servers} and accepts them with {@code mcp.accept}.
 */
public final class McpPack implements ToolPack {

  public static final String SERVERS = Mcp.SERVERS;
  public static final String ACCEPT = Mcp.ACCEPT;

  private @Nullable McpServers servers;
  private volatile PackSecrets secrets = PackSecrets.none();

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
        context.privateFolders(),
        context.userHome(),
        context.environment(),
        context.secrets(),
        context.toolsChanged(),
        context.returns());
    servers = s;
    secrets = context.secrets();
    context.onPolicyChange().accept(s::follow);
    return List.of(s);
  }

  @Override
  public PolicyDocument withoutSecrets(PolicyDocument doc) {
    return McpEnv.without(doc);
  }

  @Override
  public SecretTable.Undo keepSecrets(PolicyDocument doc, PackSecrets secrets) throws IOException {
    return McpEnv.keep(doc, secrets);
  }

  @Override
  public void start() {
    McpServers s = servers;
    if (s != null) s.follow();
  }

  @Override
  public List<PackMethod> methods() {
    return List.of(
        new PackMethod(SERVERS, params -> describe()),
        new PackMethod(ACCEPT, this::accept, (p, answer) -> {
          List<String> accepted = ((Mcp.AcceptResult) answer).accepted();
          return accepted.isEmpty()
              ? null
              : "accepted the tools "
                  + accepted.stream().map(PackMethod::quoted).collect(Collectors.joining(", "))
                  + " of the MCP server " + server(p) + " as shown";
        }),
        new PackMethod(
            Mcp.SIGN_IN,
            this::signIn,
            (p, answer) -> "began signing in to the MCP server " + server(p)),
        new PackMethod(
            Mcp.SIGN_OUT,
            this::signOut,
            (p, answer) -> ((Mcp.SignOutResult) answer).signedOut()
                ? "signed out of the MCP server " + server(p)
                : null),
        new PackMethod(
            Mcp.SET_VALUE,
            this::setValue,
            (p, answer) -> (p.path("value").isTextual() ? "set" : "removed") + " the value "
                + PackMethod.quoted(p.path("name").asText()) + " of the MCP server "
                + server(p)));
  }

  private static String server(JsonNode params) {
    return PackMethod.quoted(params.path("server").asText());
  }

  private McpServers servers() throws ToolFailure {
    McpServers s = servers;
    if (s == null) throw new ToolFailure(ToolErrorCodes.UNAVAILABLE, "the MCP pack is not running");
    return s;
  }

  /** Each server with its state, the end of its stderr log and its tools as the user reviews them. */
  private Mcp.ServersResult describe() throws ToolFailure {
    List<Mcp.Server> out = new ArrayList<>();
    Map<String, McpEnv.Row> kept = McpEnv.read(secrets);
    for (ServerLink link : servers().links()) {
      List<Mcp.Tool> tools = new ArrayList<>();
      link.tools().forEach((name, tool) -> {
        McpTool.Listing l = tool.listing();
        ToolDefinition d = tool.definition();
        tools.add(new Mcp.Tool(
            name,
            l.remoteName(),
            l.title(),
            l.description(),
            l.inputSchema(),
            l.readOnly(),
            l.openWorld(),
            d.risk().wire(),
            d.confirmation().wire(),
            l.standing().wire(),
            l.hash(),
            tool.offered(),
            l.flags(),
            l.schemaProblem().orElse(null)));
      });
      long pid = link.pid();
      out.add(new Mcp.Server(
          link.name(),
          link.entry().url() != null ? "http" : "stdio",
          link.state().wire(),
          link.problem().orElse(null),
          pid > 0 ? pid : null,
          link.log().toString(),
          link.stderrTail(20),
          tools,
          link.entry().url() != null ? null : servers().sandboxed(),
          McpEnv.names(link.name(), link.entry(), kept),
          link.entry().url() == null
              ? null
              : servers().signIns().signedIn(link.name(), link.entry().url())));
    }
    return new Mcp.ServersResult(out);
  }

  /**
   * Accepts tools exactly as the user saw them ({@code tools}: each by the server's name and the
   * hash shown with it); one the server described anew since is not accepted and is named in
   * {@code changed}, for the window to show again.
   */
  private Mcp.AcceptResult accept(JsonNode params) throws ToolFailure {
    Mcp.AcceptParams p =
        params(params, Mcp.AcceptParams.class, "mcp.accept takes {server, tools: [{name, hash}]}");
    String server = p.server();
    if (server == null || server.isEmpty())
      throw new ToolFailure(
          ToolErrorCodes.VALIDATION_ERROR, "name the \"server\" whose tools you accept");
    if (p.tools() == null || p.tools().isEmpty())
      throw new ToolFailure(
          ToolErrorCodes.VALIDATION_ERROR,
          "name the tools you accept, each with the hash you were shown (\"tools\")");
    ServerLink link = servers()
        .link(server)
        .orElseThrow(() -> new ToolFailure(
            ToolErrorCodes.NOT_FOUND, "there is no MCP server \"" + server + "\" in the policy"));
    Map<String, String> seen = new LinkedHashMap<>();
    Set<String> known = new HashSet<>();
    link.tools().values().forEach(t -> known.add(t.listing().remoteName()));
    for (Mcp.Seen t : p.tools()) {
      if (t.name() == null || t.hash() == null)
        throw new ToolFailure(ToolErrorCodes.VALIDATION_ERROR, "each tool is {name, hash}");
      if (!known.contains(t.name()))
        throw new ToolFailure(
            ToolErrorCodes.NOT_FOUND,
            "the MCP server \"" + server + "\" has no tool \"" + t.name() + "\"");
      seen.put(t.name(), t.hash());
    }
    ServerLink.AcceptOutcome outcome = link.accept(seen);
    return new Mcp.AcceptResult(outcome.accepted(), outcome.changed());
  }

  /**
   * Starts the user's sign-in to a server at a URL: the address for the user's browser. Only the
   * window calls this (ui role); the model has no way to it.
   */
  private Mcp.SignInResult signIn(JsonNode params) throws ToolFailure {
    Mcp.SignInParams p = params(
        params, Mcp.SignInParams.class, "mcp.sign_in takes {server, client_id?, client_secret?}");
    ServerLink link = httpLink(p.server());
    try {
      java.net.URI uri = servers()
          .signIns()
          .begin(
              link.name(),
              java.util.Objects.requireNonNull(link.entry().url()),
              p.clientId(),
              p.clientSecret());
      return new Mcp.SignInResult(uri.toString());
    } catch (IOException e) {
      throw new ToolFailure(
          ToolErrorCodes.UNAVAILABLE, "cannot sign in to “" + link.name() + "”: " + e.getMessage());
    }
  }

  private Mcp.SignOutResult signOut(JsonNode params) throws ToolFailure {
    Mcp.SignOutParams p = params(params, Mcp.SignOutParams.class, "mcp.sign_out takes {server}");
    ServerLink link = httpLink(p.server());
    String url = java.util.Objects.requireNonNull(link.entry().url());
    boolean was = servers().signIns().signedIn(link.name(), url);
    servers().signIns().signOut(link.name());
    link.restart();
    return new Mcp.SignOutResult(was);
  }

  /**
   * Sets or removes one of a server's kept values, and restarts the server with it. The policy's
   * entry (without its values) says which program the values are for.
   */
  private Mcp.SetValueResult setValue(JsonNode params) throws ToolFailure {
    Mcp.SetValueParams p = params(
        params,
        Mcp.SetValueParams.class,
        "mcp.set_value takes {server, name, value} (a null" + " value removes it)");
    if (p.server() == null || p.server().isEmpty() || p.name() == null)
      throw new ToolFailure(
          ToolErrorCodes.VALIDATION_ERROR, "name the \"server\" and the value's \"name\"");
    McpServers s = servers();
    PolicyDocument.McpServer entry = s.entry(p.server())
        .orElseThrow(() -> new ToolFailure(
            ToolErrorCodes.NOT_FOUND,
            "there is no MCP server \"" + p.server() + "\" in the policy"));
    List<String> names;
    try {
      names = McpEnv.set(secrets, p.server(), entry, p.name(), p.value());
    } catch (IllegalArgumentException e) {
      throw new ToolFailure(ToolErrorCodes.VALIDATION_ERROR, String.valueOf(e.getMessage()));
    } catch (IOException e) {
      throw new ToolFailure(ToolErrorCodes.UNAVAILABLE, String.valueOf(e.getMessage()));
    }
    s.follow();
    return new Mcp.SetValueResult(names);
  }

  /** A window method's params in their record, or a validation error saying their shape. */
  private static <T> T params(JsonNode params, Class<T> type, String shape) throws ToolFailure {
    try {
      return Json.convert(params, type);
    } catch (IllegalArgumentException e) {
      throw new ToolFailure(ToolErrorCodes.VALIDATION_ERROR, shape);
    }
  }

  private ServerLink httpLink(@Nullable String server) throws ToolFailure {
    if (server == null || server.isEmpty())
      throw new ToolFailure(ToolErrorCodes.VALIDATION_ERROR, "name the \"server\"");
    ServerLink link = servers()
        .link(server)
        .orElseThrow(() -> new ToolFailure(
            ToolErrorCodes.NOT_FOUND, "there is no MCP server \"" + server + "\" in the policy"));
    if (link.entry().url() == null)
      throw new ToolFailure(
          ToolErrorCodes.VALIDATION_ERROR,
          "“" + server + "” is started on this machine; only a server at a URL is signed in to");
    return link;
  }

  @Override
  public void close() {
    McpServers s = servers;
    if (s != null) s.close();
  }
}
