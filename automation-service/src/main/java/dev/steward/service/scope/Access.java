package dev.steward.service.scope;

/** What a call does with a path. */
public enum Access {
  READ,
  WRITE
}
