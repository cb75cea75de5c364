package dev.steward.service.tools;

import static dev.steward.service.TestService.args;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.method.Audit;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.tool.Risk;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.protocol.tool.ToolResult;
import dev.steward.service.TestService;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A pack that lives only in the test sources ({@code SamplePack}, registered through {@code
 * ServiceLoader}) is offered, gated, audited and undone by the real service — nothing of the gate,
 * the transport or the audit log knows it.
 */
class PackIT {

  TestService t;
  StewardClient ui;
  StewardClient agent;

  @BeforeEach
  void start() {
    t = TestService.start();
    ui = t.client(Role.UI);
    agent = t.client(Role.AGENT);
  }

  @AfterEach
  void stop() {
    t.close();
  }

  @Test
  void a_pack_from_the_class_path_is_listed_with_its_definition() {
    ToolDefinition add = agent.tools().stream()
        .filter(d -> d.name().equals("sample.tally_add"))
        .findFirst()
        .orElseThrow();
    assertEquals(Risk.MEDIUM, add.risk());
    assertTrue(add.mutates() && add.undoable() && !add.sends());
    assertEquals("[\"name\",\"by\"]", add.argsSchema().path("required").toString());
  }

  @Test
  void its_calls_are_checked_confirmed_audited_and_undone_like_any_other() {
    ToolResult bad = TestService.exec(agent, "sample.tally_add", args("name", "apples", "by", 0));
    assertEquals(
        ToolErrorCodes.VALIDATION_ERROR,
        bad.error().code(),
        "the pack's schema is enforced by the gate");
    assertEquals("/by", bad.error().field());

    ToolResult created =
        TestService.exec(agent, "sample.tally_add", args("name", "apples", "by", 2));
    assertTrue(created.ok(), String.valueOf(created.error()));
    assertEquals("allowed", created.audit().decision());

    ToolResult unconfirmed =
        TestService.exec(agent, "sample.tally_add", args("name", "apples", "by", 3));
    assertEquals(
        ToolErrorCodes.TOKEN_MISSING,
        unconfirmed.error().code(),
        "adding to an existing tally is destructive");

    ToolResult added =
        TestService.execConfirmed(ui, agent, "sample.tally_add", args("name", "apples", "by", 3));
    assertTrue(added.ok(), String.valueOf(added.error()));
    assertEquals(5, added.value().path("value").asLong());
    assertEquals("confirmed", added.audit().decision());

    ToolResult undone = ui.call(
        Methods.TOOL_UNDO, new Execute.UndoParams(added.audit().auditId()), ToolResult.class);
    assertTrue(undone.ok(), String.valueOf(undone.error()));
    assertEquals("sample.tally_add", undone.value().path("tool").asText());
    assertEquals(
        2,
        TestService.exec(agent, "sample.tally_get", args("name", "apples"))
            .value()
            .path("value")
            .asLong());

    Audit.QueryResult rows =
        ui.call(Methods.AUDIT_QUERY, Map.of("tool", "sample.tally_add"), Audit.QueryResult.class);
    assertEquals(
        8,
        rows.rows().size(),
        "a refusal row each for the bad and the unconfirmed call, two rows each for the two that ran, the confirmed call's preflight, the token's grant row");
    assertFalse(ui.call(Methods.AUDIT_QUERY, Map.of("tool", "tool.undo"), Audit.QueryResult.class)
        .rows()
        .isEmpty());
  }
}
