package dev.steward.service.policy;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.PackSettings;
import dev.steward.protocol.policy.PolicyDocument;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PackSettingsRulesTest {

  private static PackSettings.Section section(String pack, String where, PackSettings.Field... f) {
    return new PackSettings.Section(pack, pack, "", where, List.of(f));
  }

  private static final PackSettings.Field NOTE = PackSettings.Field.text("note", "Note", "", null);

  @Test
  void aPackKeepsItsSettingsUnderItsOwnNameOrAKeyOfItsOwnNeverSteward() {
    assertDoesNotThrow(() -> PackSettingsRules.of(
        List.of(section("sample", "packs.sample", NOTE), section("code", "code", NOTE))));
    for (String where : List.of("packs.other", "hosts", "grants", "packs", "a.b", "Code")) {
      IllegalStateException e = assertThrows(
          IllegalStateException.class,
          () -> PackSettingsRules.of(List.of(section("sample", where, NOTE))),
          where);
      assertTrue(e.getMessage().contains("sample"), e.getMessage());
    }
    assertThrows(
        IllegalStateException.class,
        () -> PackSettingsRules.of(List.of(section("a", "x", NOTE), section("b", "x", NOTE))),
        "two packs, one place");
    assertThrows(
        IllegalStateException.class,
        () -> PackSettingsRules.of(List.of(section("a", "x", NOTE, NOTE))),
        "one key twice");
    assertThrows(
        IllegalStateException.class,
        () -> PackSettingsRules.of(List.of(section(
            "a",
            "x",
            new PackSettings.Field(
                "pick", "Pick", PackSettings.Kind.CHOICE, "", null, List.of(), false)))),
        "a choice of nothing");
  }

  @Test
  void valuesUnderPacksAreCheckedAgainstTheDeclaration() throws Exception {
    PackSettingsRules rules = PackSettingsRules.of(List.of(
        section("sample", "packs.sample", NOTE, PackSettings.Field.toggle("on", "On", "", false))));
    rules.check(PolicyDocument.defaults()
        .withPacks(Map.of("sample", Json.object().put("note", "x").put("on", true))));
    rules.check(
        PolicyDocument.defaults().withPacks(Map.of("sample", Json.object().putNull("note"))));
    PolicyError e = assertThrows(
        PolicyError.class,
        () -> rules.check(PolicyDocument.defaults()
            .withPacks(Map.of("sample", Json.mapper().createArrayNode()))));
    assertTrue(e.getMessage().contains("packs.sample is an object"), e.getMessage());
    assertThrows(
        PolicyError.class,
        () -> PackSettingsRules.none()
            .check(PolicyDocument.defaults().withPacks(Map.of("sample", Json.object()))),
        "no pack declares it");
  }
}
