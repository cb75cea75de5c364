package dev.steward.service.tools;

import static dev.steward.service.TestService.args;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.client.ClientException;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.jsonrpc.ErrorCodes;
import dev.steward.protocol.method.Audit;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.PackSettings;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.tool.Risk;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.protocol.tool.ToolResult;
import dev.steward.service.TestService;
import java.util.List;
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

    // A tool whose own checks or summary break answers clearly, with its rows.
    ToolResult unchecked =
        TestService.exec(agent, "sample.tally_add", args("name", "unchecked", "by", 1));
    assertEquals(ToolErrorCodes.VALIDATION_ERROR, unchecked.error().code(), unchecked.toString());
    assertEquals("blocked", unchecked.audit().decision());
    ToolResult unsummed =
        TestService.exec(agent, "sample.tally_add", args("name", "unsummed", "by", 1));
    assertEquals(ToolErrorCodes.INTERNAL, unsummed.error().code(), unsummed.toString());
    assertTrue(unsummed.audit().endedAt() != null, "its completion row: " + unsummed);

    // A tool whose look before a dialog breaks is refused, with its row, and answers clearly.
    TestService.exec(agent, "sample.tally_add", args("name", "broken", "by", 1));
    ToolResult broken =
        TestService.exec(agent, "sample.tally_add", args("name", "broken", "by", 1));
    assertEquals(ToolErrorCodes.EXECUTION_ERROR, broken.error().code(), broken.toString());
    assertTrue(broken.error().message().contains("could not look at this call"), broken.toString());
    assertEquals("blocked", broken.audit().decision());
    assertEquals(
        "deny",
        ui.preflight(TestService.id(), "sample.tally_add", args("name", "broken", "by", 1))
            .decision());
  }

  @Test
  void its_settings_section_is_described_to_the_window_and_kept_under_packs() {
    PackSettings.Result declared =
        ui.call(Methods.PACKS_SETTINGS, Map.of(), PackSettings.Result.class);
    PackSettings.Section sample = declared.sections().stream()
        .filter(s -> s.pack().equals("sample"))
        .findFirst()
        .orElseThrow();
    assertEquals("packs.sample", sample.section());
    assertEquals(
        List.of("greeting", "loud", "mood", "token"),
        sample.fields().stream().map(PackSettings.Field::key).toList());
    assertTrue(
        declared.sections().stream().anyMatch(s -> s.section().equals("code")),
        "the code pack's section is declared the same way");
    ClientException notUi = assertThrows(
        ClientException.class, () -> agent.call(Methods.PACKS_SETTINGS, Map.of(), JsonNode.class));
    assertEquals(
        ErrorCodes.FORBIDDEN, java.util.Objects.requireNonNull(notUi.rpcError()).code());

    assertEquals("hello", greet().path("greeting").asText(), "the fallback before any setting");
    PolicyDocument doc = ui.call(Methods.POLICY_GET, Map.of(), PolicyDocument.class);
    ObjectNode mine =
        Json.object().put("greeting", "ahoy").put("loud", true).put("mood", "cheerful");
    ui.call(Methods.POLICY_UPDATE, doc.withPacks(Map.of("sample", mine)), PolicyDocument.class);
    ui.call(
        Methods.SECRETS_SET,
        Map.of("section", "sample", "key", "token", "value", "t-1"),
        JsonNode.class);
    JsonNode greeted = greet();
    assertEquals("AHOY", greeted.path("greeting").asText());
    assertEquals("cheerful", greeted.path("mood").asText());
    assertTrue(greeted.path("token_set").asBoolean());
    assertFalse(greeted.toString().contains("t-1"));
  }

  @Test
  void values_that_do_not_fit_a_declared_section_are_refused_by_name() {
    PolicyDocument doc = ui.call(Methods.POLICY_GET, Map.of(), PolicyDocument.class);
    Map<String, String> refused = new java.util.LinkedHashMap<>();
    refused.put("nobody", "\"packs\" names \"nobody\", which is no pack with settings of its own");
    refused.put("sample:colour", "unknown key \"packs.sample.colour\"");
    refused.put("sample:loud", "packs.sample.loud is true or false");
    refused.put("sample:mood", "packs.sample.mood is one of calm, cheerful");
    refused.put("sample:token", "packs.sample.token is a secret");
    for (Map.Entry<String, String> e : refused.entrySet()) {
      String[] at = e.getKey().split(":");
      ObjectNode values = Json.object();
      if (at.length > 1) values.put(at[1], "yes");
      ClientException error = assertThrows(
          ClientException.class,
          () -> ui.call(
              Methods.POLICY_UPDATE, doc.withPacks(Map.of(at[0], values)), PolicyDocument.class),
          e.getKey());
      assertTrue(error.getMessage().contains(e.getValue()), error.getMessage());
    }
    assertTrue(
        ui.call(Methods.POLICY_GET, Map.of(), PolicyDocument.class).packs().isEmpty(),
        "nothing refused was kept");
  }

  @Test
  void values_of_a_pack_no_longer_there_keep_the_service_starting_and_block_no_other_change() {
    t.close();
    t = TestService.start(p -> p.withPacks(Map.of("gone", Json.object().put("colour", "red"))));
    ui = t.client(Role.UI);
    PolicyDocument doc = ui.call(Methods.POLICY_GET, Map.of(), PolicyDocument.class);
    assertEquals("red", doc.packSettings("gone").path("colour").asText(), "kept as written");
    PolicyDocument saved = ui.call(
        Methods.POLICY_UPDATE,
        doc.withHosts(new PolicyDocument.Hosts(List.of("example.org"), false)),
        PolicyDocument.class);
    assertEquals(List.of("example.org"), saved.hosts().allow());
    ClientException changed = assertThrows(
        ClientException.class,
        () -> ui.call(
            Methods.POLICY_UPDATE,
            doc.withPacks(Map.of("gone", Json.object().put("colour", "blue"))),
            PolicyDocument.class));
    assertTrue(changed.getMessage().contains("\"gone\""), changed.getMessage());
  }

  private JsonNode greet() {
    ToolResult r = TestService.exec(agent, "sample.greet", Json.object());
    assertTrue(r.ok(), String.valueOf(r.error()));
    return r.value();
  }
}
