package dev.steward.service.policy;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.PackSettings;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.service.tools.code.CodePack;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PackSettingsRulesTest {

  private static PackSettings.Section section(String pack, String where, PackSettings.Field... f) {
    return new PackSettings.Section(pack, pack, "", where, List.of(f));
  }

  private static final PackSettings.Field NOTE = PackSettings.Field.text("note", "Note", "", null);

  @Test
  void aPackKeepsItsSettingsUnderItsOwnNameOrItsOwnKeyNeverStewardsOrAnotherPacks() {
    assertDoesNotThrow(() -> PackSettingsRules.of(Map.of(
        "sample", section("sample", "packs.sample", NOTE), "code", section("code", "code", NOTE))));
    for (String where :
        List.of("packs.other", "hosts", "grants", "packs", "mail", "a.b", "Sample", "sample")) {
      IllegalStateException e = assertThrows(
          IllegalStateException.class,
          () -> PackSettingsRules.of(Map.of("sample", section("sample", where, NOTE))),
          where);
      assertTrue(e.getMessage().contains("sample"), e.getMessage());
    }
    assertThrows(
        IllegalStateException.class,
        () -> PackSettingsRules.of(Map.of("web", section("mail", "mail", NOTE))),
        "a pack describes only its own settings");
    assertThrows(
        IllegalStateException.class,
        () -> PackSettingsRules.of(Map.of("a", section("a", "packs.a", NOTE, NOTE))),
        "one key twice");
    for (PackSettings.Field choice : List.of(
        new PackSettings.Field(
            "pick", "Pick", PackSettings.Kind.CHOICE, "", null, List.of(), false),
        new PackSettings.Field(
            "pick", "Pick", PackSettings.Kind.CHOICE, "", "z", List.of("x", "y"), false))) {
      assertThrows(
          IllegalStateException.class,
          () -> PackSettingsRules.of(Map.of("a", section("a", "packs.a", choice))),
          "a choice of nothing, or a fallback that is no choice");
    }
  }

  @Test
  void theCodePacksSettingsAreKeysOfItsSectionInThePolicy() {
    PackSettings.Section code = new CodePack().settings().orElseThrow();
    JsonNode section =
        Json.mapper().valueToTree(new PolicyDocument.Code(false, false, "~/Steward", 1024, 64));
    for (PackSettings.Field f : code.fields()) {
      assertTrue(section.has(f.key()), f.key() + " is a key of policy.json's code");
    }
    assertDoesNotThrow(() -> PackSettingsRules.of(Map.of("code", code)));
  }

  @Test
  void valuesUnderPacksAreCheckedAgainstTheDeclaration() throws Exception {
    PackSettingsRules rules = PackSettingsRules.of(Map.of(
        "sample",
        section(
            "sample",
            "packs.sample",
            NOTE,
            PackSettings.Field.toggle("on", "On", "", false),
            new PackSettings.Field(
                "pick", "Pick", PackSettings.Kind.CHOICE, "", null, List.of("x", "y"), false))));
    PolicyDocument fits = PolicyDocument.defaults()
        .withPacks(Map.of("sample", Json.object().put("note", "x").put("on", true)));
    assertEquals(List.of(), rules.problems(fits, null));
    assertEquals(
        List.of(),
        rules.problems(
            PolicyDocument.defaults()
                .withPacks(Map.of("sample", Json.object().putNull("note").putNull("pick"))),
            null),
        "an optional setting may be left unset");
    PolicyDocument notAnObject =
        PolicyDocument.defaults().withPacks(Map.of("sample", Json.mapper().createArrayNode()));
    assertEquals(
        List.of("policy.json: packs.sample is an object of settings"),
        rules.problems(notAnObject, null));
    assertEquals(
        List.of(),
        rules.problems(notAnObject, notAnObject),
        "values as they were before the change are not what a change is refused for");
    assertEquals(
        1,
        PackSettingsRules.none().problems(fits, null).size(),
        "no pack declares it (the pack was removed)");
    PackSettingsRules numbers = PackSettingsRules.of(Map.of(
        "sample",
        section("sample", "packs.sample", PackSettings.Field.number("n", "N", "", 5, 1, 10))));
    for (String ok : List.of("1", "10")) {
      assertEquals(
          List.of(),
          numbers.problems(
              PolicyDocument.defaults()
                  .withPacks(Map.of("sample", Json.parse("{\"n\":" + ok + "}"))),
              null));
    }
    for (String bad : List.of("0", "11", "2.5", "\"3\"")) {
      assertEquals(
          List.of("policy.json: packs.sample.n is a whole number from 1 to 10"),
          numbers.problems(
              PolicyDocument.defaults()
                  .withPacks(Map.of("sample", Json.parse("{\"n\":" + bad + "}"))),
              null),
          bad);
    }
  }
}
