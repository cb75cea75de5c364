package dev.steward.service.policy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.method.PackSettings;
import dev.steward.protocol.policy.PolicyDocument;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The settings sections the packs declare, and the rule that the policy's {@code packs.<name>}
 * values fit them: a name no pack declares, a key its section does not have, a value of the wrong
 * kind, or a secret written into {@code policy.json} is a problem that names it.
 */
public final class PackSettingsRules {

  private static final String PACKS = "packs.";
  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]{0,63}");
  /**
   * Keys of {@code policy.json} that are a pack's own section (SPEC §13), which only the pack of
   * that name may describe; every other pack keeps its settings under {@code packs.<name>}.
   */
  private static final Set<String> PACK_KEYS = Set.of("code", "household", "calendar", "mail");

  private final List<PackSettings.Section> sections;
  private final Map<String, PackSettings.Section> underPacks = new LinkedHashMap<>();

  private PackSettingsRules(List<PackSettings.Section> sections) {
    this.sections = List.copyOf(sections);
  }

  public static PackSettingsRules none() {
    return new PackSettingsRules(List.of());
  }

  /**
   * Checks the declarations themselves, each beside the name of the pack that made it: a pack's
   * mistake stops the service at start.
   */
  public static PackSettingsRules of(Map<String, PackSettings.Section> byPack) {
    PackSettingsRules rules = new PackSettingsRules(List.copyOf(byPack.values()));
    for (Map.Entry<String, PackSettings.Section> e : byPack.entrySet()) {
      PackSettings.Section s = e.getValue();
      String pack = s.pack();
      if (!pack.equals(e.getKey()) || !NAME.matcher(pack).matches())
        throw new IllegalStateException(
            "the pack \"" + e.getKey() + "\" declares a settings section for \"" + pack + "\"");
      String where = s.section();
      if (where.equals(PACKS + pack)) {
        rules.underPacks.put(pack, s);
      } else if (!(where.equals(pack) && PACK_KEYS.contains(where))) {
        throw new IllegalStateException("the pack \"" + pack + "\" keeps its settings under packs."
            + pack + ", not at \"" + where + "\"");
      }
      Set<String> keys = new HashSet<>();
      for (PackSettings.Field f : s.fields()) {
        if (!NAME.matcher(f.key()).matches() || !keys.add(f.key()))
          throw new IllegalStateException(
              "the pack \"" + pack + "\" declares the setting \"" + f.key() + "\" badly");
        String fallback = f.fallback();
        if (f.kind() == PackSettings.Kind.CHOICE
            && (f.choices().isEmpty() || (fallback != null && !f.choices().contains(fallback))))
          throw new IllegalStateException("the setting \"" + f.key() + "\" of " + pack
              + " offers no choices, or falls back to none of them");
      }
    }
    return rules;
  }

  public List<PackSettings.Section> sections() {
    return sections;
  }

  /**
   * What under {@code packs} no declared section takes as it is, leaving out the packs whose values
   * are as in {@code before}: a pack removed or changed since must not block other changes.
   */
  List<String> problems(PolicyDocument doc, @Nullable PolicyDocument before) {
    List<String> problems = new ArrayList<>();
    for (Map.Entry<String, JsonNode> e : doc.packs().entrySet()) {
      String name = e.getKey();
      if (before != null && e.getValue().equals(before.packs().get(name))) continue;
      String problem = problem(name, e.getValue());
      if (problem != null) problems.add("policy.json: " + problem);
    }
    return problems;
  }

  private @Nullable String problem(String name, JsonNode values) {
    PackSettings.Section section = underPacks.get(name);
    if (section == null)
      return "\"packs\" names \"" + name + "\", which is no pack with settings of its own";
    if (!values.isObject()) return "packs." + name + " is an object of settings";
    for (Map.Entry<String, JsonNode> v : values.properties()) {
      String at = "packs." + name + "." + v.getKey();
      PackSettings.Field field = field(section, v.getKey());
      if (field == null) return "unknown key \"" + at + "\"";
      String wrong = wrongKind(field, v.getValue());
      if (wrong != null) return at + " " + wrong;
    }
    return null;
  }

  private static PackSettings.@Nullable Field field(PackSettings.Section s, String key) {
    for (PackSettings.Field f : s.fields()) if (f.key().equals(key)) return f;
    return null;
  }

  private static @Nullable String wrongKind(PackSettings.Field field, JsonNode value) {
    if (value.isNull() && !field.required() && field.kind() != PackSettings.Kind.SECRET)
      return null;
    return switch (field.kind()) {
      case TOGGLE -> value.isBoolean() ? null : "is true or false";
      case TEXT -> value.isTextual() ? null : "is text";
      case CHOICE ->
        value.isTextual() && field.choices().contains(value.asText())
            ? null
            : "is one of " + String.join(", ", field.choices());
      case SECRET ->
        "is a secret: it is kept in config/secrets.json (Settings), never in policy.json";
      case NUMBER ->
        value.isIntegralNumber() && value.canConvertToLong() && field.takes(value.asLong())
            ? null
            : "is a whole number" + field.range();
    };
  }
}
