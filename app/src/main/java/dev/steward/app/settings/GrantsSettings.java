package dev.steward.app.settings;

import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.util.ShownText;
import java.util.ArrayList;
import java.util.List;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/** Settings, "Grants": the standing grants "Always allow here" made, each revocable. */
public final class GrantsSettings {

  private final PolicyEditor policy;
  private final ObservableList<PolicyDocument.StandingGrant> grants =
      FXCollections.observableArrayList();
  private final ReadOnlyStringWrapper error;

  /** @param error shared with the policy editor: a policy that cannot be read shows here */
  GrantsSettings(PolicyEditor policy, ReadOnlyStringWrapper error) {
    this.policy = policy;
    this.error = error;
    policy.onShow(doc -> grants.setAll(doc.grants()));
  }

  public void revoke(PolicyDocument.StandingGrant grant) {
    policy.change(
        doc -> {
          List<PolicyDocument.StandingGrant> kept = new ArrayList<>(doc.grants());
          kept.removeIf(g -> g.id().equals(grant.id()));
          return doc.withGrants(kept);
        },
        error,
        () -> {});
  }

  /**
   * One grant as the list shows it: its paths (a model's, once) on one line, hidden characters
   * written out, so that a name cannot reverse or hide what the grant covers.
   */
  public static String shown(PolicyDocument.StandingGrant g) {
    return shown(g, java.time.ZoneId.systemDefault(), java.util.Locale.getDefault());
  }

  /** {@link #shown(PolicyDocument.StandingGrant)}, its end in the user's zone and manner. */
  static String shown(
      PolicyDocument.StandingGrant g, java.time.ZoneId zone, java.util.Locale locale) {
    java.time.Instant end = g.expiresAt();
    return ShownText.escaped(g.tool() + " under " + String.join(", ", g.paths()))
        + (end == null
            ? ", no end date"
            : ", until "
                + java.time.format.DateTimeFormatter.ofLocalizedDateTime(
                        java.time.format.FormatStyle.MEDIUM, java.time.format.FormatStyle.SHORT)
                    .withLocale(locale)
                    .format(end.atZone(zone)));
  }

  public ObservableList<PolicyDocument.StandingGrant> grants() {
    return grants;
  }

  public ReadOnlyStringProperty errorProperty() {
    return error.getReadOnlyProperty();
  }
}
