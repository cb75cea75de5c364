package dev.steward.service.policy;

import dev.steward.protocol.policy.PolicyDocument;
import java.io.IOException;

/**
 * Secrets a user put in the policy (an MCP server's {@code env}, pasted as other apps keep it)
 * go to {@code config/secrets.json}; {@code policy.json} is written without them (SPEC §13).
 */
public interface SecretsApart {

  /** The policy as {@code policy.json} keeps it. */
  PolicyDocument without(PolicyDocument doc);

  /**
   * Keeps the secrets {@link #without} leaves out; called before the policy is written. Answers
   * how to put them back as they were if it then cannot be.
   */
  Undo keep(PolicyDocument doc) throws IOException;

  /** Puts kept secrets back as they were. */
  @FunctionalInterface
  interface Undo {
    void run() throws IOException;
  }

  static SecretsApart none() {
    return new SecretsApart() {
      @Override
      public PolicyDocument without(PolicyDocument doc) {
        return doc;
      }

      @Override
      public Undo keep(PolicyDocument doc) {
        return () -> {};
      }
    };
  }
}
