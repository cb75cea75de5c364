package dev.steward.protocol.method;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.tool.AuditMeta;
import dev.steward.protocol.tool.Confirmation;
import dev.steward.protocol.tool.Risk;
import dev.steward.protocol.tool.ScopeKind;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.tool.ToolError;
import dev.steward.protocol.tool.ToolResult;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every wire record survives JSON and back, with SPEC §3.1's snake_case names. */
class WireRoundTripTest {

  static final Instant T = Instant.parse("2026-11-26T10:00:00.123456Z");
  static final JsonNode ARGS = Json.tree(Map.of("path", "~/Steward/a.txt"));

  static Stream<Object> records() {
    ToolDefinition def = new ToolDefinition(
        "files.read_text", "d", ARGS, ARGS, Risk.LOW, Confirmation.NEVER, List.of(ScopeKind.PATHS));
    AuditMeta meta = new AuditMeta("7", "allowed", T, T);
    return Stream.of(
        new Hello.Params("app", "1"),
        new Hello.Result("0.1.0", Role.UI, new Hello.Limits(1 << 20, 32, 64, 5000)),
        new ToolsList.Result(List.of(def)),
        new Preflight.Params("t1", "files.read_text", ARGS),
        new Preflight.Result(
            "confirm",
            "why",
            Risk.MEDIUM,
            true,
            "CONFIRMATION_REQUIRED",
            null,
            List.of("file x"),
            List.of("/a"),
            ARGS),
        new Grant.Params(
            "t1", List.of(new Grant.Call("files.write_text", ARGS)), null, null, 60, null),
        new Grant.Params(
            "t1", null, List.of("files.write_text"), new Grant.Scope(List.of("~/Notes")), 60, true),
        new Grant.Result("st1.a.b", "a", T),
        new Grant.RevokeParams("a"),
        new Execute.Params("t1", "c1", "files.read_text", ARGS, "st1.a.b", "k1"),
        new Execute.CancelParams("c1"),
        new Execute.CancelResult(true),
        ToolResult.success(ARGS, meta),
        ToolResult.success(ARGS, new AuditMeta("8", "allowed", T, T, "3 matches in 2 files")),
        ToolResult.failure(new ToolError("SCOPE_DENIED", "no", "/path", null), meta),
        new ToolResults("t1", "c1", "files.read_text", ToolResult.success(ARGS, meta)),
        new ToolProgress("t1", "c1", "half", 0.5),
        new Audit.QueryParams("files.read_text", "allowed", "ok", "t1", "x", T, T, 10, "5"),
        new Audit.Row(
            "1",
            "decision",
            "t1",
            "c1",
            "files.read_text",
            "ab",
            "{}",
            "allowed",
            "r",
            null,
            null,
            null,
            null,
            T,
            null,
            "cd"),
        new Audit.QueryResult(List.of(), "3"),
        new Audit.VerifyResult(false, 10, "4", "changed"),
        PolicyDocument.defaults());
  }

  @ParameterizedTest
  @MethodSource("records")
  void round_trips(Object record) throws Exception {
    String json = Json.write(record);
    Object back = Json.mapper().readValue(json, record.getClass());
    assertEquals(record, back, json);
    assertTrue(!json.matches(".*\"[a-z]+[A-Z][a-zA-Z]*\":.*"), "camelCase field in " + json);
  }

  @org.junit.jupiter.api.Test
  void audit_meta_keeps_its_four_fields_and_adds_a_summary_only_when_there_is_one() {
    String plain = Json.write(new AuditMeta("7", "allowed", T, T));
    org.junit.jupiter.api.Assertions.assertFalse(plain.contains("summary"), plain);
    org.junit.jupiter.api.Assertions.assertTrue(plain.contains("\"audit_id\":\"7\""), plain);
    String with = Json.write(new AuditMeta("7", "allowed", T, T, "wrote 3 bytes"));
    org.junit.jupiter.api.Assertions.assertTrue(
        with.contains("\"summary\":\"wrote 3 bytes\""), with);
  }
}
