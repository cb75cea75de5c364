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

/** Settings, "Web hosts": the hosts pages open on without asking, and whether visits keep cookies. */
public final class HostsSettings {

  private final PolicyEditor policy;
  private final ObservableList<String> hosts = FXCollections.observableArrayList();
  private final BooleanProperty keepBrowserProfile = new SimpleBooleanProperty(false);
  private final StringProperty newHost = new SimpleStringProperty("");
  private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper("");

  HostsSettings(PolicyEditor policy) {
    this.policy = policy;
    policy.onShow(doc -> {
      hosts.setAll(doc.hosts().allow());
      keepBrowserProfile.set(doc.browser().keepProfile());
    });
  }

  public void add() {
    String host = newHost.get().strip().toLowerCase(java.util.Locale.ROOT);
    if (host.isEmpty()) {
      error.set("Type a host name, e.g. en.wikipedia.org");
      return;
    }
    policy.change(
        doc -> {
          List<String> allow = new ArrayList<>(doc.hosts().allow());
          if (!allow.contains(host)) allow.add(host);
          return doc.withHosts(new PolicyDocument.Hosts(allow, doc.hosts().allowPrivate()));
        },
        error,
        () -> newHost.set(""));
  }

  public void remove(String host) {
    policy.change(
        doc -> {
          List<String> allow = new ArrayList<>(doc.hosts().allow());
          allow.remove(host);
          return doc.withHosts(new PolicyDocument.Hosts(allow, doc.hosts().allowPrivate()));
        },
        error,
        () -> {});
  }

  /** On: web visits share cookies and sign-ins. Off: each starts clean, and the kept profile is deleted. */
  public void setKeepBrowserProfile(boolean keep) {
    policy.change(doc -> doc.withBrowser(new PolicyDocument.Browser(keep)), error, () -> {});
  }

  public ObservableList<String> hosts() {
    return hosts;
  }

  public BooleanProperty keepBrowserProfileProperty() {
    return keepBrowserProfile;
  }

  public StringProperty newHostProperty() {
    return newHost;
  }

  public ReadOnlyStringProperty errorProperty() {
    return error.getReadOnlyProperty();
  }
}
