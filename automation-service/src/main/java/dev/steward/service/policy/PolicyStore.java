package dev.steward.service.policy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import dev.steward.protocol.home.AtomicFiles;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.tool.McpToolNames;
import dev.steward.service.config.StewardHome;
import dev.steward.service.scope.PathScope;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Loads, checks and saves {@code config/policy.json}. A missing file is created with SPEC §5's
 * defaults; an unknown key is an error naming it; updates are written atomically and only take
 * effect once they are valid.
 */
public final class PolicyStore {

  /** A host name (optionally "*." for its subdomains) or an IPv4 address; no scheme, port or path. */
  private static final java.util.regex.Pattern HOST = java.util.regex.Pattern.compile(
      "(\\*\\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*",
      java.util.regex.Pattern.CASE_INSENSITIVE);

  private static final java.util.logging.Logger LOG =
      java.util.logging.Logger.getLogger(PolicyStore.class.getName());

  private final StewardHome home;
  private final Predicate<String> knownTool;
  private final PackSettingsRules packSettings;
  private final SecretsApart secrets;
  private final List<Runnable> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();
  /** Null only while {@link #load} compiles the first policy (which needs the store). */
  private volatile @org.jspecify.annotations.Nullable Policy current;

  private PolicyStore(
      StewardHome home,
      Predicate<String> knownTool,
      PackSettingsRules packSettings,
      SecretsApart secrets,
      @org.jspecify.annotations.Nullable Policy current) {
    this.home = home;
    this.knownTool = knownTool;
    this.packSettings = packSettings;
    this.secrets = secrets;
    this.current = current;
  }

  /** Loads the policy; {@code knownTool} says which tool names grants and overrides may name. */
  public static PolicyStore load(StewardHome home, Predicate<String> knownTool)
      throws IOException, PolicyError {
    return load(home, knownTool, PackSettingsRules.none(), SecretsApart.none());
  }

  /**
   * As above, with the packs' settings sections that {@code packs.<name>} values must fit, and
   * the packs' secrets found in the file (an MCP server's {@code env} pasted by hand) moved to
   * {@code config/secrets.json}, the file written again without them.
   */
  public static PolicyStore load(
      StewardHome home,
      Predicate<String> knownTool,
      PackSettingsRules packSettings,
      SecretsApart secrets)
      throws IOException, PolicyError {
    Path file = home.policyFile();
    PolicyDocument doc;
    if (Files.exists(file)) {
      doc = parse(Files.readString(file, StandardCharsets.UTF_8));
    } else {
      doc = PolicyDocument.defaults();
      write(file, doc);
    }
    PolicyStore store = new PolicyStore(home, knownTool, packSettings, secrets, null);
    store.current = store.compile(doc, false);
    PolicyDocument kept = secrets.without(doc);
    try {
      SecretsApart.Undo undo = secrets.keep(doc);
      if (!kept.equals(doc)) {
        writeOrUndo(file, kept, undo);
        store.current = store.compile(kept, false);
        LOG.info("secrets found in policy.json were moved to config/secrets.json");
      }
    } catch (IOException e) {
      // The file stays as it is, secrets and all, until they can be kept apart; clients are
      // shown the policy without them all the same (shown()).
      LOG.warning(
          "secrets in policy.json could not be moved to config/secrets.json: " + e.getMessage());
    }
    return store;
  }

  public Policy current() {
    return java.util.Objects.requireNonNull(current, "the policy is loaded");
  }

  /** The policy as clients see it: never with a secret, even one not yet moved out of the file. */
  public PolicyDocument shown() {
    return secrets.without(current().document());
  }

  private static void writeOrUndo(Path file, PolicyDocument doc, SecretsApart.Undo undo)
      throws IOException {
    try {
      write(file, doc);
    } catch (IOException e) {
      try {
        undo.run();
      } catch (IOException again) {
        e.addSuppressed(again);
      }
      throw e;
    }
  }

  /** Checks and saves a new policy; nothing changes when it is refused. */
  public synchronized Policy update(PolicyDocument doc) throws IOException, PolicyError {
    PolicyDocument kept = secrets.without(doc);
    Policy next = compile(kept, true);
    writeOrUndo(home.policyFile(), kept, secrets.keep(doc));
    current = next;
    for (Runnable listener : listeners) listener.run();
    return next;
  }

  /** The policy as clients see it ({@link #shown}) before and after one update. */
  public record Shown(PolicyDocument before, PolicyDocument after) {}

  /**
   * {@link #update}, with the policy as clients saw it just before and just after, read under the
   * same lock: two updates at once are each described against the policy they changed.
   */
  public synchronized Shown updateShown(PolicyDocument doc) throws IOException, PolicyError {
    PolicyDocument before = shown();
    update(doc);
    return new Shown(before, shown());
  }

  /** Runs {@code listener} after each change of the policy (on the thread that changed it). */
  public void onChange(Runnable listener) {
    listeners.add(listener);
  }

  public static PolicyDocument parse(String json) throws PolicyError {
    try {
      PolicyDocument doc = Json.strictMapper().readValue(json, PolicyDocument.class);
      if (doc == null) throw new PolicyError("policy.json is empty");
      return doc;
    } catch (UnrecognizedPropertyException e) {
      // An MCP entry's keys and values may be a pasted token: what an error says is written to
      // the audit log when the window's update is refused, so only a plain word is quoted there.
      String key = e.getPropertyName();
      boolean mcp = String.valueOf(e.getPathReference()).contains("mcp_servers");
      throw new PolicyError("policy.json: unknown key "
          + (!mcp || key.matches("[A-Za-z][A-Za-z_]{0,31}")
              ? "\"" + key + "\"" + at(e.getPathReference())
              : "in an entry of mcp_servers (not quoted: it is not a plain word)"));
    } catch (ValueInstantiationException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new PolicyError("policy.json: " + cause.getMessage());
    } catch (JsonProcessingException e) {
      if (String.valueOf(e.getMessage()).contains("mcp_servers"))
        throw new PolicyError("policy.json: an entry of mcp_servers has a value of the wrong kind"
            + " (\"args\" is a list of text, \"env\" and \"headers\" objects of text)");
      throw new PolicyError("policy.json: " + e.getOriginalMessage());
    }
  }

  private static String at(String reference) {
    return reference == null
        ? ""
        : " (" + reference.replace("dev.steward.protocol.policy.", "") + ")";
  }

  /**
   * With {@code strictRoots}, a folder added by this update must exist (a typo is refused); a
   * folder the policy already had is kept even when it is missing, so a default such as
   * ~/Downloads on a machine without one never blocks every other change.
   */
  private Policy compile(PolicyDocument doc, boolean strictRoots) throws PolicyError {
    java.util.Set<String> known = new java.util.HashSet<>();
    Policy before = current;
    if (before != null) before.document().paths().forEach(r -> known.add(r.root()));
    for (PolicyDocument.PathRoot root : doc.paths()) {
      if (root.root().isBlank())
        throw new PolicyError("policy.json: a folder in \"paths\" is empty");
      if (strictRoots && !known.contains(root.root())) {
        Path expanded = PathScope.expandRoot(root.root(), home.userHome());
        if (!Files.isDirectory(expanded)) {
          throw new PolicyError("policy.json: the folder \"" + root.root() + "\" does not exist");
        }
      }
    }
    List<String> packProblems =
        packSettings.problems(doc, before == null ? null : before.document());
    if (strictRoots && !packProblems.isEmpty()) throw new PolicyError(packProblems.get(0));
    // At start, a pack's values that no longer fit (the pack removed or changed) are kept and
    // said: refusing them would keep the service, and so the window that fixes them, down.
    packProblems.forEach(problem -> LOG.warning(problem + "; kept as written"));
    Set<String> servers = mcpServerParts(doc);
    Predicate<String> named = name -> knownTool.test(name)
        && McpToolNames.serverPart(name).map(servers::contains).orElse(true);
    for (PolicyDocument.StandingGrant g : doc.grants()) {
      if (!named.test(g.tool()))
        throw new PolicyError(
            "policy.json: grant \"" + g.id() + "\" names an unknown tool \"" + g.tool() + "\"");
    }
    for (String tool : doc.overrides().keySet()) {
      if (!named.test(tool))
        throw new PolicyError("policy.json: \"overrides\" names an unknown tool \"" + tool + "\"");
    }
    for (String host : doc.hosts().allow()) {
      if (!HOST.matcher(host).matches()) {
        throw new PolicyError("policy.json: \"" + host
            + "\" in hosts.allow is not a host name (like en.wikipedia.org or *.example.org)");
      }
    }
    Set<String> ids =
        doc.apps().stream().map(PolicyDocument.AppEntry::id).collect(Collectors.toSet());
    if (ids.size() != doc.apps().size()) throw new PolicyError("policy.json: two apps share an id");
    PathScope scope =
        PathScope.of(doc.paths(), List.of(home.config(), home.data(), home.run()), home.userHome());
    return new Policy(doc, scope);
  }

  /** Server names become parts of tool names: two that would name the same tools are refused. */
  private static Set<String> mcpServerParts(PolicyDocument doc) throws PolicyError {
    Map<String, String> parts = new java.util.HashMap<>();
    for (Map.Entry<String, PolicyDocument.McpServer> e : doc.mcpServers().entrySet()) {
      String name = e.getKey();
      if (name.isBlank() || name.length() > 64)
        throw new PolicyError("policy.json: an MCP server's name is 1 to 64 characters");
      String part = McpToolNames.part(name);
      String other = parts.putIfAbsent(part, name);
      if (other != null)
        throw new PolicyError("policy.json: the MCP servers \"" + other + "\" and \"" + name
            + "\" would name their tools alike (mcp." + part + ".…); rename one");
      String url = e.getValue().url();
      if (url != null && !(url.startsWith("http://") || url.startsWith("https://")))
        throw new PolicyError(
            "policy.json: the MCP server \"" + name + "\" has a url that is not http(s)");
    }
    return parts.keySet();
  }

  private static void write(Path file, PolicyDocument doc) throws IOException {
    byte[] bytes = Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsBytes(doc);
    AtomicFiles.write(file, bytes, true);
  }
}
