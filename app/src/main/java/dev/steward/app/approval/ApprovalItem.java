package dev.steward.app.approval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.app.agent.Approver;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.Risk;
import java.io.IOException;
import java.util.List;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import org.jspecify.annotations.Nullable;

/**
 * One call in the approval dialog: ticked or not, and its arguments as editable JSON with the
 * problem the gate found in them (empty when none).
 */
public final class ApprovalItem {

  private final Approver.Pending pending;
  private final BooleanProperty ticked = new SimpleBooleanProperty(true);
  private final StringProperty argsText;
  private final ReadOnlyStringWrapper problem = new ReadOnlyStringWrapper("");
  private final String originalText;

  ApprovalItem(Approver.Pending pending) {
    this.pending = pending;
    this.originalText = Json.pretty(pending.call().args());
    this.argsText = new SimpleStringProperty(originalText);
  }

  public Approver.Pending pending() {
    return pending;
  }

  public String tool() {
    return pending.call().toolName();
  }

  public Risk risk() {
    return pending.preflight().risk();
  }

  /** "Always allow here" is a standing grant, never offered for high-risk tools (SPEC §2). */
  public boolean alwaysAllowOffered() {
    return risk() != Risk.HIGH && pending.preflight().paths() != null && !pending.preflight().paths().isEmpty();
  }

  /** What will happen, in plain words. */
  public String inWords() {
    return PlainWords.describe(pending.call(), pending.preflight());
  }

  public String reason() {
    return pending.preflight().reason();
  }

  public List<String> scopes() {
    List<String> paths = pending.preflight().paths();
    return paths == null ? List.of() : paths;
  }

  public List<String> taint() {
    List<String> t = pending.preflight().taint();
    return t == null ? List.of() : t;
  }

  /** The unified diff of a text overwrite, or empty. */
  public String diff() {
    JsonNode preview = pending.preflight().preview();
    return preview == null ? "" : preview.path("diff").asText("");
  }

  public BooleanProperty tickedProperty() {
    return ticked;
  }

  public StringProperty argsTextProperty() {
    return argsText;
  }

  public ReadOnlyStringProperty problemProperty() {
    return problem.getReadOnlyProperty();
  }

  void setProblem(String text) {
    problem.set(text);
  }

  public boolean edited() {
    return !argsText.get().equals(originalText);
  }

  /** The arguments as edited, or null when the text is not a JSON object. */
  @Nullable JsonNode parsedArgs() {
    try {
      JsonNode node = Json.parse(argsText.get());
      return node != null && node.isObject() ? node : null;
    } catch (IOException e) {
      return null;
    }
  }
}
