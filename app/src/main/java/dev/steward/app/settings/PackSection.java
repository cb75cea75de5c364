package dev.steward.app.settings;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.PackSettings;
import dev.steward.protocol.policy.PolicyDocument;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * A settings section a tool pack declares ({@code packs.settings}): one property a field, filled
 * from the object at the section's key in the policy, saved whole through {@code policy.update};
 * secrets go to {@code secrets.set} under the pack's name, and their fields are never filled.
 */
public final class PackSection {

  private final PackSettings.Section section;
  private final PolicyEditor policy;
  private final SecretsWriter secrets;
  private final Map<String, StringProperty> texts = new LinkedHashMap<>();
  private final Map<String, BooleanProperty> toggles = new LinkedHashMap<>();
  private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper("");
  private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper("");

  PackSection(PackSettings.Section section, PolicyEditor policy, SecretsWriter secrets) {
    this.section = section;
    this.policy = policy;
    this.secrets = secrets;
    for (PackSettings.Field f : section.fields()) {
      if (f.kind() == PackSettings.Kind.TOGGLE) toggles.put(f.key(), new SimpleBooleanProperty());
      else texts.put(f.key(), new SimpleStringProperty(""));
    }
    policy.follow(this::show);
  }

  public PackSettings.Section declaration() {
    return section;
  }

  /** The text of a text, choice or secret field. */
  public StringProperty text(String key) {
    StringProperty p = texts.get(key);
    if (p == null) throw new IllegalArgumentException("no text field \"" + key + "\"");
    return p;
  }

  public BooleanProperty toggle(String key) {
    BooleanProperty p = toggles.get(key);
    if (p == null) throw new IllegalArgumentException("no check box \"" + key + "\"");
    return p;
  }

  public ReadOnlyStringProperty statusProperty() {
    return status.getReadOnlyProperty();
  }

  public ReadOnlyStringProperty errorProperty() {
    return error.getReadOnlyProperty();
  }

  /**
   * Fills each field from the policy; an optional text the policy leaves unset stays empty (the
   * field's prompt shows its fallback), so that saving does not write the fallback down.
   */
  private void show(PolicyDocument doc) {
    JsonNode values = at(Json.mapper().valueToTree(doc));
    for (PackSettings.Field f : section.fields()) {
      JsonNode v = values.path(f.key());
      String fallback = f.fallback();
      switch (f.kind()) {
        case TOGGLE ->
          toggle(f.key()).set(v.isBoolean() ? v.asBoolean() : Boolean.parseBoolean(fallback));
        case SECRET -> {} // never read back: what is typed is only ever sent
        case TEXT, CHOICE -> {
          boolean filled = f.required() || f.kind() == PackSettings.Kind.CHOICE;
          text(f.key())
              .set(v.isTextual() ? v.asText() : filled && fallback != null ? fallback : "");
        }
        case NUMBER ->
          text(f.key())
              .set(
                  v.isIntegralNumber()
                      ? v.asText()
                      : f.required() && fallback != null ? fallback : "");
      }
    }
  }

  public void save() {
    status.set("");
    ObjectNode values = Json.object();
    Map<String, String> typedSecrets = new LinkedHashMap<>();
    for (PackSettings.Field f : section.fields()) {
      switch (f.kind()) {
        case TOGGLE -> values.put(f.key(), toggle(f.key()).get());
        case SECRET -> {
          String typed = text(f.key()).get();
          if (!typed.isEmpty()) typedSecrets.put(f.key(), typed);
        }
        case TEXT, CHOICE -> {
          String typed = text(f.key()).get().strip();
          if (typed.isEmpty() && f.required()) {
            error.set("Fill in \"" + f.label().toLowerCase(Locale.ROOT) + "\"");
            return;
          }
          if (!typed.isEmpty()) values.put(f.key(), typed);
        }
        case NUMBER -> {
          String typed = text(f.key()).get().strip();
          if (typed.isEmpty() && !f.required()) continue;
          long n;
          try {
            n = Long.parseLong(typed);
          } catch (NumberFormatException e) {
            n = Long.MIN_VALUE;
          }
          if (n == Long.MIN_VALUE || !f.takes(n)) {
            error.set("\"" + f.label() + "\" is a whole number" + f.range());
            return;
          }
          values.put(f.key(), n);
        }
      }
    }
    policy.change(
        doc -> with(doc, values),
        error,
        () -> secrets.write(section.pack(), typedSecrets, error, written -> {
          if (written) typedSecrets.keySet().forEach(k -> text(k).set(""));
          status.set(written ? "Saved; secrets are kept in config/secrets.json" : "Saved");
        }));
  }

  /**
   * The policy with this section's values in place. A section under {@code packs} is exactly what
   * the form holds (its declaration is all there is of it); a section of its own keeps the keys
   * the form does not show, and an optional text left empty goes back to its default.
   */
  private PolicyDocument with(PolicyDocument doc, ObjectNode values) {
    ObjectNode tree = Json.mapper().valueToTree(doc);
    String[] parts = section.section().split("\\.");
    try {
      ObjectNode parent = tree;
      for (int i = 0; i < parts.length - 1; i++) parent = parent.withObjectProperty(parts[i]);
      String last = parts[parts.length - 1];
      if (parts.length > 1) {
        parent.set(last, values);
      } else {
        ObjectNode target = parent.withObjectProperty(last);
        for (PackSettings.Field f : section.fields()) {
          if (f.kind() != PackSettings.Kind.SECRET && !values.has(f.key())) target.remove(f.key());
        }
        target.setAll(values);
      }
      return Json.strictMapper().treeToValue(tree, PolicyDocument.class);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(e.getOriginalMessage(), e);
    } catch (UnsupportedOperationException e) {
      throw new IllegalArgumentException(
          "policy.json has no object at " + section.section() + " to keep these settings in", e);
    }
  }

  private JsonNode at(JsonNode tree) {
    JsonNode node = tree;
    for (String part : section.section().split("\\.")) node = node.path(part);
    return node;
  }
}
