package dev.steward.service.tools.mcp;

import io.modelcontextprotocol.spec.McpTransportException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A server at a URL that wants the user signed in (HTTP 401) or wants more access than the
 * sign-in gave (403 with {@code error="insufficient_scope"}), with the parameters of its {@code
 * WWW-Authenticate: Bearer …} challenge (RFC 6750 §3, RFC 9728 §5.1). What the server says here is
 * its own: it goes to the window, never to the model.
 */
final class AuthChallenge extends McpTransportException {

  private static final long serialVersionUID = 1L;
  private static final int MAX_HEADER = 8192;

  private final int status;
  private final transient Map<String, String> params;

  AuthChallenge(int status, @Nullable String header) {
    super(
        status == 401
            ? "the server asks for a sign-in (HTTP 401)"
            : "the server wants more access than the sign-in gave (HTTP 403)");
    this.status = status;
    this.params = bearerParams(header);
  }

  int status() {
    return status;
  }

  /** Whether this is a call refused for want of a scope (a sign-in with more may help). */
  boolean insufficientScope() {
    return status == 403 && "insufficient_scope".equals(params.get("error"));
  }

  /** Whether the server asks for a sign-in at all (a 403 for another reason does not). */
  boolean asksSignIn() {
    return status == 401 || insufficientScope();
  }

  Optional<String> resourceMetadata() {
    return Optional.ofNullable(params.get("resource_metadata"));
  }

  /** The scopes the server names, in its order, none repeated. */
  Set<String> scopes() {
    String s = params.get("scope");
    if (s == null || s.isBlank()) return Set.of();
    return new LinkedHashSet<>(Arrays.asList(s.trim().split("\\s+")));
  }

  /**
   * The parameters of the header's {@code Bearer} challenge, by lower-cased name; a header with
   * no Bearer challenge gives none. Other schemes' challenges in the same header are skipped.
   */
  static Map<String, String> bearerParams(@Nullable String header) {
    Map<String, String> out = new LinkedHashMap<>();
    if (header == null || header.length() > MAX_HEADER) return out;
    int i = 0;
    int n = header.length();
    boolean inBearer = false;
    while (i < n) {
      while (i < n && (header.charAt(i) == ' ' || header.charAt(i) == ',')) i++;
      int start = i;
      while (i < n && isToken(header.charAt(i))) i++;
      if (i == start) {
        i++; // a character no grammar allows here: skipped
        continue;
      }
      String word = header.substring(start, i);
      int j = i;
      while (j < n && header.charAt(j) == ' ') j++;
      if (j < n && header.charAt(j) == '=') {
        // name=value: a parameter of the challenge being read
        j++;
        while (j < n && header.charAt(j) == ' ') j++;
        StringBuilder value = new StringBuilder();
        if (j < n && header.charAt(j) == '"') {
          j++;
          while (j < n && header.charAt(j) != '"') {
            if (header.charAt(j) == '\\' && j + 1 < n) j++;
            value.append(header.charAt(j++));
          }
          j++;
        } else {
          while (j < n && header.charAt(j) != ',' && header.charAt(j) != ' ') {
            value.append(header.charAt(j++));
          }
        }
        if (inBearer) out.putIfAbsent(word.toLowerCase(Locale.ROOT), value.toString());
        i = j;
      } else {
        // a scheme's name starts a new challenge
        inBearer = word.equalsIgnoreCase("Bearer");
        i = j;
      }
    }
    return out;
  }

  private static boolean isToken(char c) {
    return c > 0x20 && c < 0x7f && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0;
  }
}
