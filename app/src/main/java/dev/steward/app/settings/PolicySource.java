package dev.steward.app.settings;

import dev.steward.protocol.policy.PolicyDocument;

/** The service's policy (ui role): read it, and replace it whole — the service checks it first. */
public interface PolicySource {

  PolicyDocument get();

  /** The policy as saved; throws with the service's reason when it is refused. */
  PolicyDocument update(PolicyDocument policy);
}
