package dev.steward.service.gate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.policy.Policy;
import dev.steward.service.scope.HostResolver;
import dev.steward.service.scope.HostScope;
import dev.steward.service.scope.ResolvedPath;
import dev.steward.service.scope.ScopeDenied;
import dev.steward.service.tools.HostUse;
import dev.steward.service.tools.PathUse;
import dev.steward.service.tools.Tool;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Step 2: every path argument resolved and checked against the policy's folders; every URL
 * argument checked against the host scope.
 */
final class ScopeCheck {

  private ScopeCheck() {}

  static Map<String, ResolvedPath> resolve(Tool tool, JsonNode args, Policy policy) throws Refusal {
    Map<String, ResolvedPath> out = new LinkedHashMap<>();
    for (PathUse use : tool.paths(args)) {
      try {
        out.put(use.pointer(), policy.scope().resolve(use.path(), use.access()));
      } catch (ScopeDenied e) {
        throw new Refusal(ToolErrorCodes.SCOPE_DENIED, e.getMessage(), use.pointer());
      }
    }
    return out;
  }

  /**
   * Refuses URLs the host scope never allows (scheme, private address literals) and answers the
   * hosts that are allowed but not on the user's list: those need a click. Looks nothing up: a
   * name sent to a resolver is data leaving the machine, so DNS waits for {@link #checkResolved}.
   */
  static List<String> hostsToConfirm(Tool tool, JsonNode args, Policy policy) throws Refusal {
    List<HostUse> uses = tool.hosts(args);
    // Most calls name no host: no scope made for them (its lists parsed on every call).
    if (uses.isEmpty()) return List.of();
    HostScope scope = new HostScope(policy.document().hosts(), host -> {
      throw new IllegalStateException("no host is looked up before a call is approved");
    });
    List<String> outside = new ArrayList<>();
    for (HostUse use : uses) {
      try {
        URI uri = scope.check(use.url());
        if (!scope.allowlisted(uri)) outside.add(HostScope.asciiHost(uri));
      } catch (ScopeDenied e) {
        throw new Refusal(ToolErrorCodes.SCOPE_DENIED, e.getMessage(), use.pointer());
      }
    }
    return outside;
  }

  /** For an approved call only: each host, looked up, must not be a private address (unless allowed). */
  static void checkResolved(Tool tool, JsonNode args, Policy policy, HostResolver resolver)
      throws Refusal {
    List<HostUse> uses = tool.hosts(args);
    if (uses.isEmpty()) return;
    HostScope scope = new HostScope(policy.document().hosts(), resolver);
    for (HostUse use : uses) {
      try {
        scope.checkResolved(scope.check(use.url()));
      } catch (ScopeDenied e) {
        throw new Refusal(ToolErrorCodes.SCOPE_DENIED, e.getMessage(), use.pointer());
      }
    }
  }
}
