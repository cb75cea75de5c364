package dev.steward.app.settings;

import dev.steward.protocol.policy.PolicyDocument;
import java.util.ArrayList;
import java.util.List;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/** Settings, "Folders Steward may use": the policy's path roots, added and removed. */
public final class FoldersSettings {

  private final PolicyEditor policy;
  private final ObservableList<PolicyDocument.PathRoot> folders =
      FXCollections.observableArrayList();
  private final StringProperty newFolder = new SimpleStringProperty("");
  private final BooleanProperty newFolderWritable = new SimpleBooleanProperty(false);
  private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper("");

  FoldersSettings(PolicyEditor policy) {
    this.policy = policy;
    policy.onShow(doc -> folders.setAll(doc.paths()));
  }

  public void add() {
    String root = newFolder.get().strip();
    if (root.isEmpty()) {
      error.set("Type a folder, e.g. ~/Notes");
      return;
    }
    String access =
        newFolderWritable.get() ? PolicyDocument.PathRoot.READ_WRITE : PolicyDocument.PathRoot.READ;
    policy.change(
        doc -> {
          List<PolicyDocument.PathRoot> paths = new ArrayList<>(doc.paths());
          paths.removeIf(p -> p.root().equals(root));
          paths.add(new PolicyDocument.PathRoot(root, access));
          return doc.withPaths(paths);
        },
        error,
        () -> newFolder.set(""));
  }

  public void remove(PolicyDocument.PathRoot root) {
    policy.change(
        doc -> {
          List<PolicyDocument.PathRoot> paths = new ArrayList<>(doc.paths());
          paths.remove(root);
          return doc.withPaths(paths);
        },
        error,
        () -> {});
  }

  public ObservableList<PolicyDocument.PathRoot> folders() {
    return folders;
  }

  public StringProperty newFolderProperty() {
    return newFolder;
  }

  public BooleanProperty newFolderWritableProperty() {
    return newFolderWritable;
  }

  public ReadOnlyStringProperty errorProperty() {
    return error.getReadOnlyProperty();
  }
}
