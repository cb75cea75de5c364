package dev.steward.service.policy;

import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.service.scope.PathScope;

/** The policy in force: the document as the user wrote it and the path scope compiled from it. */
public record Policy(PolicyDocument document, PathScope scope) {

  /** Whether the user turned this tool off: it is not listed and its calls are refused. */
  public boolean turnedOff(String tool) {
    PolicyDocument.ToolOverride o = document.overrides().get(tool);
    return o != null && o.off();
  }
}
