package dev.steward.app.audit;

import dev.steward.protocol.home.AtomicFiles;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Audit;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Writes audit rows as CSV (RFC 4180) or JSON, whole or not at all; a row whose preview was cut
 * carries its whole arguments too ({@code args_whole}), as the service read them back. A CSV cell that a spreadsheet
 * would run as a formula ({@code =}, {@code +}, {@code -}, {@code @}) is prefixed with {@code '}:
 * the log holds text that models and web pages wrote.
 */
public final class AuditExport {

  static final List<String> COLUMNS = List.of(
      "audit_id",
      "kind",
      "started_at",
      "ended_at",
      "trace_id",
      "call_id",
      "tool",
      "decision",
      "reason",
      "result",
      "error_code",
      "summary",
      "args_preview",
      "args_hash",
      "token_id",
      "row_hash",
      "args_whole");

  private AuditExport() {}

  /** {@code whole}: a row's whole arguments, or null for a row whose preview was not cut. */
  public static void csv(
      List<Audit.Row> rows,
      java.util.function.Function<Audit.Row, @Nullable String> whole,
      Path file)
      throws IOException {
    StringBuilder out = new StringBuilder(String.join(",", COLUMNS)).append("\r\n");
    for (Audit.Row r : rows) {
      List<@Nullable Object> cells = java.util.Arrays.asList(
          r.auditId(),
          r.kind(),
          r.startedAt(),
          r.endedAt(),
          r.traceId(),
          r.callId(),
          r.tool(),
          r.decision(),
          r.reason(),
          r.result(),
          r.errorCode(),
          r.summary(),
          r.argsPreview(),
          r.argsHash(),
          r.tokenId(),
          r.rowHash(),
          whole.apply(r));
      for (int i = 0; i < cells.size(); i++) {
        if (i > 0) out.append(',');
        out.append(cell(cells.get(i)));
      }
      out.append("\r\n");
    }
    AtomicFiles.write(file, out.toString().getBytes(StandardCharsets.UTF_8), false);
  }

  public static void json(
      List<Audit.Row> rows,
      java.util.function.Function<Audit.Row, @Nullable String> whole,
      Path file)
      throws IOException {
    com.fasterxml.jackson.databind.node.ArrayNode out = Json.mapper().createArrayNode();
    for (Audit.Row r : rows) {
      com.fasterxml.jackson.databind.node.ObjectNode row = Json.mapper().valueToTree(r);
      String w = whole.apply(r);
      if (w != null) row.put("args_whole", w);
      out.add(row);
    }
    AtomicFiles.write(
        file, Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsBytes(out), false);
  }

  static String cell(@Nullable Object value) {
    if (value == null) return "";
    String s = value.toString();
    if (!s.isEmpty() && "=+-@\t\r".indexOf(s.charAt(0)) >= 0) s = "'" + s;
    if (s.contains(",") || s.contains("\"") || s.contains("\n") || s.contains("\r"))
      s = "\"" + s.replace("\"", "\"\"") + "\"";
    return s;
  }
}
