package dev.steward.service.policy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.method.PackSettings;
import dev.steward.protocol.policy.PolicyDocument;
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
 * kind, or a secret written into {@code policy.json} is an error that names it.
 */
public final class PackSettingsRules {

  private static final String PACKS = "packs.";
  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]{0,63}");
  /** Keys of the policy that are Steward's own, never a pack's section. */
  private static final Set<String> CORE = Set.of(
      "paths",
      "apps",
      "hosts",
      "grants",
      "overrides",
      "confirm_under",
      "browser",
      "mcp_servers",
      "packs");

  private final List<PackSettings.Section> sections;
  private final Map<String, PackSettings.Section> underPacks = new LinkedHashMap<>();

  private PackSettingsRules(List<PackSettings.Section> sections) {
    this.sections = List.copyOf(sections);
  }

  public static PackSettingsRules none() {
    return new PackSettingsRules(List.of());
  }

  /** Checks the declarations themselves: a pack's mistake stops the service at start. */
  public static PackSettingsRules of(List<PackSettings.Section> sections) {
    PackSettingsRules rules = new PackSettingsRules(sections);
    Set<String> places = new HashSet<>();
    for (PackSettings.Section s : sections) {
      String where = s.section();
      if (!places.add(where))
        throw new IllegalStateException("two packs declare the settings section \"" + where + "\"");
      if (where.startsWith(PACKS)) {
        String name = where.substring(PACKS.length());
        if (!name.equals(s.pack()) || !NAME.matcher(name).matches())
          throw new IllegalStateException("the pack \"" + s.pack()
              + "\" keeps its settings under packs." + s.pack() + ", not " + where);
        rules.underPacks.put(name, s);
      } else if (!NAME.matcher(where).matches() || CORE.contains(where)) {
        throw new IllegalStateException(
            "the pack \"" + s.pack() + "\" cannot keep its settings at \"" + where + "\"");
      }
      Set<String> keys = new HashSet<>();
      for (PackSettings.Field f : s.fields()) {
        if (!NAME.matcher(f.key()).matches() || !keys.add(f.key()))
          throw new IllegalStateException(
              "the pack \"" + s.pack() + "\" declares the setting \"" + f.key() + "\" badly");
        if (f.kind() == PackSettings.Kind.CHOICE && f.choices().isEmpty())
          throw new IllegalStateException(
              "the setting \"" + f.key() + "\" of " + s.pack() + " offers no choices");
      }
    }
    return rules;
  }

  public List<PackSettings.Section> sections() {
    return sections;
  }

  /** Refuses values under {@code packs} that no declared section takes as they are. */
  void check(PolicyDocument doc) throws PolicyError {
    for (Map.Entry<String, JsonNode> e : doc.packs().entrySet()) {
      String name = e.getKey();
      PackSettings.Section section = underPacks.get(name);
      if (section == null)
        throw new PolicyError("policy.json: \"packs\" names \"" + name
            + "\", which is no pack with settings of its own");
      JsonNode values = e.getValue();
      if (!values.isObject())
        throw new PolicyError("policy.json: packs." + name + " is an object of settings");
      for (Map.Entry<String, JsonNode> v : values.properties()) {
        String at = "packs." + name + "." + v.getKey();
        PackSettings.Field field = field(section, v.getKey());
        if (field == null) throw new PolicyError("policy.json: unknown key \"" + at + "\"");
        String wrong = wrongKind(field, v.getValue());
        if (wrong != null) throw new PolicyError("policy.json: " + at + " " + wrong);
      }
    }
  }

  private static PackSettings.@Nullable Field field(PackSettings.Section s, String key) {
    for (PackSettings.Field f : s.fields()) if (f.key().equals(key)) return f;
    return null;
  }

  private static @Nullable String wrongKind(PackSettings.Field field, JsonNode value) {
    return switch (field.kind()) {
      case TOGGLE -> value.isBoolean() ? null : "is true or false";
      case TEXT -> value.isTextual() || value.isNull() ? null : "is text";
      case CHOICE ->
        value.isTextual() && field.choices().contains(value.asText())
            ? null
            : "is one of " + String.join(", ", field.choices());
      case SECRET ->
        "is a secret: it is kept in config/secrets.json (Settings), never in policy.json";
    };
  }
}
