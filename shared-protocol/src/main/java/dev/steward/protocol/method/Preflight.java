package dev.steward.protocol.method;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.tool.Risk;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** {@code tool.preflight}: the gate's decision without running anything. */
public final class Preflight {

  private Preflight() {}

  /**
   * {@code in_prose} (beyond SPEC §3.1): the model wrote the call among the words of its answer,
   * not in its tool-call field, and may be quoting a call it read; the gate judges it as after
   * untrusted content. A client can only make a call stricter with it.
   */
  public record Params(
      String traceId,
      String tool,
      JsonNode args,
      @Nullable String conversationId,
      @Nullable Boolean inProse) {

    public Params(String traceId, String tool, JsonNode args) {
      this(traceId, tool, args, null, null);
    }

    public Params(String traceId, String tool, JsonNode args, @Nullable String conversationId) {
      this(traceId, tool, args, conversationId, null);
    }
  }

  /**
   * {@code decision} is {@code allow}, {@code confirm} or {@code deny}; {@code code} is the error
   * code a deny (or an execute without a token) would carry. {@code taint} names where untrusted
   * content in this conversation came from; {@code paths} are the resolved real paths the call touches;
   * {@code preview} is a dry run of a mutating call ({@code operation}, {@code path}, {@code to},
   * {@code overwrites}, a bounded unified {@code diff} for text overwrites; the diff only for the
   * ui role). {@code grant_folders} are the folders "Always allow here" would cover for this call —
   * the narrowest there are, the folder of each path — or absent when no standing grant may be
   * offered (high risk, no paths, or a folder that is an allowed root or the home folder itself).
   * {@code fingerprints} (beyond SPEC §3.1): what each of {@code paths} names now, opaque, read
   * before the preview was made; a dialog hands them back with its approval ({@link
   * Grant.Call#fingerprints()}), so that a file changed or replaced since is not approved unseen.
   */
  public record Result(
      String decision,
      String reason,
      Risk risk,
      boolean destructive,
      @Nullable String code,
      @Nullable String field,
      @Nullable List<String> taint,
      @Nullable List<String> paths,
      @Nullable JsonNode preview,
      @Nullable List<String> grantFolders,
      @Nullable List<String> fingerprints) {

    public Result(
        String decision,
        String reason,
        Risk risk,
        boolean destructive,
        @Nullable String code,
        @Nullable String field,
        @Nullable List<String> taint,
        @Nullable List<String> paths,
        @Nullable JsonNode preview,
        @Nullable List<String> grantFolders) {
      this(
          decision,
          reason,
          risk,
          destructive,
          code,
          field,
          taint,
          paths,
          preview,
          grantFolders,
          null);
    }

    public Result(
        String decision,
        String reason,
        Risk risk,
        boolean destructive,
        @Nullable String code,
        @Nullable String field,
        @Nullable List<String> taint,
        @Nullable List<String> paths,
        @Nullable JsonNode preview) {
      this(decision, reason, risk, destructive, code, field, taint, paths, preview, null, null);
    }
  }

  public static final String ALLOW = "allow";
  public static final String CONFIRM = "confirm";
  public static final String DENY = "deny";
}
