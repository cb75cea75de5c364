package dev.steward.service.audit;

/** How far an acknowledged audit row is guaranteed to survive (see docs/decisions/0001). */
public enum Durability {
  /** Written to the journal before acknowledging: survives the service crashing or being killed. */
  PROCESS,
  /** Also fsynced before acknowledging: survives an OS crash or power loss, at a latency cost. */
  SYNC
}
