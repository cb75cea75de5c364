package dev.steward.app.settings;

import dev.steward.protocol.policy.PolicyDocument;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/** Settings, "Apps": the apps the assistant may open, and proposals from the installed ones. */
public final class AppsSettings {

  private final PolicyEditor policy;
  private final Executor background;
  private final Executor ui;
  private final ObservableList<PolicyDocument.AppEntry> apps = FXCollections.observableArrayList();
  private final ObservableList<DesktopEntries.Proposal> proposals =
      FXCollections.observableArrayList();
  private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper("");

  AppsSettings(PolicyEditor policy, Executor background, Executor ui) {
    this.policy = policy;
    this.background = background;
    this.ui = ui;
    policy.onShow(doc -> apps.setAll(doc.apps()));
  }

  /** Proposals from the installed desktop entries that are not on the allowlist yet. */
  public void propose(List<Path> folders) {
    background.execute(() -> {
      List<DesktopEntries.Proposal> found = DesktopEntries.scan(folders);
      ui.execute(() -> proposals.setAll(found.stream()
          .filter(p -> apps.stream().noneMatch(a -> a.id().equals(p.entry().id())))
          .toList()));
    });
  }

  public void add(DesktopEntries.Proposal proposal) {
    policy.change(
        doc -> {
          List<PolicyDocument.AppEntry> all = new ArrayList<>(doc.apps());
          all.removeIf(a -> a.id().equals(proposal.entry().id()));
          all.add(proposal.entry());
          return doc.withApps(all);
        },
        error,
        () -> proposals.remove(proposal));
  }

  public void remove(PolicyDocument.AppEntry app) {
    policy.change(
        doc -> {
          List<PolicyDocument.AppEntry> kept = new ArrayList<>(doc.apps());
          kept.removeIf(a -> a.id().equals(app.id()));
          return doc.withApps(kept);
        },
        error,
        () -> {});
  }

  public ObservableList<PolicyDocument.AppEntry> apps() {
    return apps;
  }

  public ObservableList<DesktopEntries.Proposal> proposals() {
    return proposals;
  }

  public ReadOnlyStringProperty errorProperty() {
    return error.getReadOnlyProperty();
  }
}
