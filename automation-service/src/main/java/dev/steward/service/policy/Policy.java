package dev.steward.service.policy;

import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.service.scope.PathScope;

/** The policy in force: the document as the user wrote it and the path scope compiled from it. */
public record Policy(PolicyDocument document, PathScope scope) {}
