package dev.steward.app.approval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.app.agent.Approver;
import dev.steward.app.agent.ProposedCall;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Preflight;
import dev.steward.protocol.tool.Risk;
import dev.steward.protocol.util.ShownText;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.binding.ObjectBinding;
import javafx.beans.binding.StringBinding;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import org.jspecify.annotations.Nullable;

/**
 * One call in the approval dialog: ticked or not, its arguments as editable JSON, the problem the
 * gate found in them (empty when none), and what the dialog shows of it — the headline, the
 * folders touched, the diff — taken from the gate's preview of exactly the arguments in the
 * editor. Until the preview of the current text has come back, the item is not {@link #current}
 * and cannot be approved: a user never approves a call described by arguments it no longer has.
 */
public final class ApprovalItem {

  private final Approver.Pending pending;
  private final BooleanProperty ticked = new SimpleBooleanProperty(true);
  private final StringProperty argsText;
  private final ReadOnlyStringWrapper problem = new ReadOnlyStringWrapper("");
  private final String originalText;
  /** The gate's preview shown, and the editor text it belongs to (null until the window's own preview came back). */
  private final ObjectProperty<Preflight.Result> shown;

  private final ObjectProperty<@Nullable String> shownFor = new SimpleObjectProperty<>();
  private final BooleanBinding current;
  private final StringBinding inWords;
  private final StringBinding diff;
  private final ObjectBinding<List<String>> scopes;
  private final ObjectBinding<Risk> risk;
  private final ObjectBinding<@Nullable Program> program;

  /**
   * A program the call runs, as the gate's preview gives it, and what it is given besides (its
   * arguments, variables and input: a program may run what it is given), or null.
   */
  public record Program(
      String language, String code, @Nullable String given) {}

  /** The most of what a program is given that the dialog lays out; the editor holds all of it. */
  private static final int MAX_GIVEN_SHOWN = 20_000;

  ApprovalItem(Approver.Pending pending) {
    this.pending = pending;
    // Hidden characters written out: what the editor shows is what runs, read back the same.
    this.originalText = Json.prettyVisible(pending.call().args());
    this.argsText = new SimpleStringProperty(originalText);
    this.shown = new SimpleObjectProperty<>(pending.preflight());
    this.current = Bindings.createBooleanBinding(
        () -> Objects.equals(shownFor.get(), argsText.get()), shownFor, argsText);
    this.inWords =
        Bindings.createStringBinding(() -> PlainWords.describe(shownCall(), shown.get()), shown);
    this.diff = Bindings.createStringBinding(() -> diffOf(shown.get()), shown);
    this.scopes = Bindings.createObjectBinding(
        () -> shown.get().paths() == null
            ? List.of()
            : shown.get().paths().stream().map(ShownText::escaped).toList(),
        shown);
    this.program = Bindings.createObjectBinding(() -> programOf(shown.get()), shown);
    Risk asked = pending.preflight().risk();
    this.risk = Bindings.createObjectBinding(
        () -> shown.get().risk().compareTo(asked) > 0 ? shown.get().risk() : asked, shown);
  }

  public Approver.Pending pending() {
    return pending;
  }

  public String tool() {
    return pending.call().toolName();
  }

  /**
   * The call's risk as the dialog treats it: the higher of what the gate said when the call was
   * asked and what it says of the arguments now in the editor (an edit can make a call high risk,
   * as a code run given the network; it never makes the dialog less careful).
   */
  public Risk risk() {
    return risk.get();
  }

  public ObjectBinding<Risk> riskProperty() {
    return risk;
  }

  /** The call as the shown preview describes it: the arguments that preview was made for. */
  private ProposedCall shownCall() {
    JsonNode args = shownFor.get() == null ? null : parse(shownFor.get());
    return args == null ? pending.call() : pending.call().withArgs(args);
  }

  /**
   * "Always allow here" is a standing grant: offered only where the service names the folders it
   * would cover (never for high risk, never a whole allowed folder or the home folder).
   */
  public boolean alwaysAllowOffered() {
    return risk() != Risk.HIGH && !grantFolders().isEmpty();
  }

  /** The folders "Always allow here" covers for the arguments shown. */
  public List<String> grantFolders() {
    List<String> folders = shown.get().grantFolders();
    return folders == null ? List.of() : folders;
  }

  /** What will happen, in plain words, for the arguments of the shown preview. */
  public StringBinding inWordsProperty() {
    return inWords;
  }

  public String inWords() {
    return inWords.get();
  }

  public String reason() {
    return shown.get().reason();
  }

  public ObjectProperty<Preflight.Result> shownProperty() {
    return shown;
  }

  public ObjectBinding<List<String>> scopesProperty() {
    return scopes;
  }

  public List<String> scopes() {
    return scopes.get();
  }

  public List<String> taint() {
    List<String> t = shown.get().taint();
    return t == null ? List.of() : t.stream().map(ShownText::escaped).toList();
  }

  /** The unified diff of a text overwrite; "no change" when the new text equals the old; empty otherwise. */
  public StringBinding diffProperty() {
    return diff;
  }

  public String diff() {
    return diff.get();
  }

  static final String NO_CHANGE = "No change: the file already holds exactly this text.";

  private static String diffOf(Preflight.Result r) {
    JsonNode preview = r.preview();
    if (preview == null) return "";
    if (preview.path("overwrites").asBoolean(false)
        && preview.has("diff")
        && preview.path("diff").asText("").isEmpty()) return NO_CHANGE;
    return ShownText.escapedKeepingLines(preview.path("diff").asText(""));
  }

  /** The program the shown preview says will run (a code run's), or null for other calls. */
  public ObjectBinding<@Nullable Program> programProperty() {
    return program;
  }

  private static @Nullable Program programOf(Preflight.Result r) {
    JsonNode preview = r.preview();
    if (preview == null || !preview.path("code").isTextual()) return null;
    // A bidirectional control written out: code cannot show in an order it does not run in.
    return new Program(
        ShownText.escaped(preview.path("language").asText("")),
        ShownText.escapedKeepingLines(preview.path("code").asText()),
        given(preview));
  }

  /** A program's arguments, variables and input, one part a section, or null when it has none. */
  private static @Nullable String given(JsonNode preview) {
    StringBuilder b = new StringBuilder();
    if (preview.path("args").size() > 0) {
      b.append("Arguments:\n");
      preview.path("args").forEach(a -> b.append("  ").append(a.asText()).append('\n'));
    }
    if (preview.path("env").size() > 0) {
      b.append("Variables:\n");
      preview
          .path("env")
          .fields()
          .forEachRemaining(e -> b.append("  ")
              .append(e.getKey())
              .append('=')
              .append(e.getValue().asText())
              .append('\n'));
    }
    if (preview.path("stdin").isTextual() && !preview.path("stdin").asText().isEmpty()) {
      b.append("Input (stdin):\n").append(preview.path("stdin").asText());
    }
    if (b.length() == 0) return null;
    String text = b.length() > MAX_GIVEN_SHOWN
        ? b.substring(0, MAX_GIVEN_SHOWN) + "\n… " + (b.length() - MAX_GIVEN_SHOWN)
            + " more characters: all of it is in the arguments below"
        : b.toString();
    return ShownText.escapedKeepingLines(text);
  }

  /** Whether what is shown was made for exactly the arguments in the editor. */
  public BooleanBinding currentProperty() {
    return current;
  }

  /** The gate's preview for {@code text}, now shown. */
  void show(String text, Preflight.Result result) {
    shown.set(result);
    shownFor.set(text);
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
  @Nullable
  JsonNode parsedArgs() {
    return parse(argsText.get());
  }

  private static @Nullable JsonNode parse(String text) {
    try {
      JsonNode node = Json.parse(text);
      return node != null && node.isObject() ? node : null;
    } catch (IOException e) {
      return null;
    }
  }
}
