package dev.steward.app.settings;

import dev.steward.protocol.policy.PolicyDocument;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * Settings, "Code runs": whether the assistant may run Python or Bash (off by default; every run
 * asks), whether runs may use the network, and the one folder they see.
 */
public final class CodeSettings {

  private final PolicyEditor policy;
  private final BooleanProperty enabled = new SimpleBooleanProperty(false);
  private final BooleanProperty network = new SimpleBooleanProperty(false);
  private final StringProperty workspace = new SimpleStringProperty("~/Steward");
  private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper("");

  CodeSettings(PolicyEditor policy) {
    this.policy = policy;
    policy.onShow(doc -> {
      enabled.set(doc.code().enabled());
      network.set(doc.code().network());
      workspace.set(doc.code().workspace());
    });
  }

  public void save() {
    String folder = workspace.get().strip();
    if (folder.isEmpty()) {
      error.set("Type the folder runs may use, e.g. ~/Steward/code");
      return;
    }
    PolicyDocument.Code next = new PolicyDocument.Code(enabled.get(), network.get(), folder);
    policy.change(doc -> doc.withCode(next), error, () -> {});
  }

  public BooleanProperty enabledProperty() {
    return enabled;
  }

  public BooleanProperty networkProperty() {
    return network;
  }

  public StringProperty workspaceProperty() {
    return workspace;
  }

  public ReadOnlyStringProperty errorProperty() {
    return error.getReadOnlyProperty();
  }
}
