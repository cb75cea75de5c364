package dev.steward.service.policy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import dev.steward.protocol.home.AtomicFiles;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.service.config.StewardHome;
import dev.steward.service.scope.PathScope;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
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

  private final StewardHome home;
  private final Set<String> toolNames;
  /** Null only while {@link #load} compiles the first policy (which needs the store). */
  private volatile @org.jspecify.annotations.Nullable Policy current;

  private PolicyStore(
      StewardHome home, Set<String> toolNames, @org.jspecify.annotations.Nullable Policy current) {
    this.home = home;
    this.toolNames = toolNames;
    this.current = current;
  }

  public static PolicyStore load(StewardHome home, Set<String> toolNames)
      throws IOException, PolicyError {
    Path file = home.policyFile();
    PolicyDocument doc;
    if (Files.exists(file)) {
      doc = parse(Files.readString(file, StandardCharsets.UTF_8));
    } else {
      doc = PolicyDocument.defaults();
      write(file, doc);
    }
    PolicyStore store = new PolicyStore(home, toolNames, null);
    store.current = store.compile(doc, false);
    return store;
  }

  public Policy current() {
    return java.util.Objects.requireNonNull(current, "the policy is loaded");
  }

  /** Checks and saves a new policy; nothing changes when it is refused. */
  public synchronized Policy update(PolicyDocument doc) throws IOException, PolicyError {
    Policy next = compile(doc, true);
    write(home.policyFile(), doc);
    current = next;
    return next;
  }

  public static PolicyDocument parse(String json) throws PolicyError {
    try {
      PolicyDocument doc = Json.strictMapper().readValue(json, PolicyDocument.class);
      if (doc == null) throw new PolicyError("policy.json is empty");
      return doc;
    } catch (UnrecognizedPropertyException e) {
      throw new PolicyError(
          "policy.json: unknown key \"" + e.getPropertyName() + "\"" + at(e.getPathReference()));
    } catch (ValueInstantiationException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new PolicyError("policy.json: " + cause.getMessage());
    } catch (JsonProcessingException e) {
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
    for (PolicyDocument.StandingGrant g : doc.grants()) {
      if (!toolNames.contains(g.tool()))
        throw new PolicyError(
            "policy.json: grant \"" + g.id() + "\" names an unknown tool \"" + g.tool() + "\"");
    }
    for (String tool : doc.overrides().keySet()) {
      if (!toolNames.contains(tool))
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

  private static void write(Path file, PolicyDocument doc) throws IOException {
    byte[] bytes = Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsBytes(doc);
    AtomicFiles.write(file, bytes, true);
  }
}
