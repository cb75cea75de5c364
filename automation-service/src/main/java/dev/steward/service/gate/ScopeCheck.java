package dev.steward.service.gate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.policy.Policy;
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
   * Refuses URLs the host scope never allows (scheme, private addresses, also after DNS) and
   * answers the hosts that are allowed but not on the user's list: those need a click.
   */
  static List<String> hostsToConfirm(Tool tool, JsonNode args, Policy policy) throws Refusal {
    HostScope scope = new HostScope(policy.document().hosts());
    List<String> outside = new ArrayList<>();
    for (HostUse use : tool.hosts(args)) {
      try {
        URI uri = scope.check(use.url());
        scope.checkResolved(uri);
        if (!scope.allowlisted(uri)) outside.add(HostScope.asciiHost(uri));
      } catch (ScopeDenied e) {
        throw new Refusal(ToolErrorCodes.SCOPE_DENIED, e.getMessage(), use.pointer());
      }
    }
    return outside;
  }
}
