package dev.steward.service.gate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.policy.Policy;
import dev.steward.service.scope.ResolvedPath;
import dev.steward.service.scope.ScopeDenied;
import dev.steward.service.tools.PathUse;
import dev.steward.service.tools.Tool;
import java.util.LinkedHashMap;
import java.util.Map;

/** Step 2: every path argument resolved and checked against the policy's folders. */
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
}
