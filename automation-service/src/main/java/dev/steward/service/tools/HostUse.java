package dev.steward.service.tools;

import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.scope.HostScope;
import dev.steward.service.scope.ScopeDenied;
import java.net.URI;

/** A URL argument of a call ({@code pointer} names it) that the gate checks against the host scope. */
public record HostUse(String pointer, String url) {

  /** What reading a page at {@code url} taints a conversation with: "web page" and its host. */
  public static String pageTaint(String url) {
    try {
      return "web page " + HostScope.asciiHost(new URI(url));
    } catch (Exception e) {
      return "web page";
    }
  }

  /** {@code url} as the scope reads it, or a SCOPE_DENIED naming {@code pointer}. */
  public static URI checked(HostScope scope, String url, String pointer) throws ToolFailure {
    try {
      return scope.check(url);
    } catch (ScopeDenied e) {
      throw new ToolFailure(ToolErrorCodes.SCOPE_DENIED, e.getMessage(), pointer, null);
    }
  }
}
