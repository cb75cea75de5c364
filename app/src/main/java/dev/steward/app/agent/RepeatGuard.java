package dev.steward.app.agent;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Notices a model that asks for the same call again after it failed: small models can repeat one
 * failing call until the step limit. Counted per turn; a declined or refused call counts as failed,
 * since asking again unchanged cannot go differently.
 */
final class RepeatGuard {

  /** Failures of one call after which asking for it again ends the turn. */
  static final int FAILURES = 2;

  private final Map<List<Object>, Integer> failures = new HashMap<>();

  /** Whether this call has failed often enough that running it again is pointless. */
  boolean exhausted(ModelCall call) {
    return failures.getOrDefault(call.sameness(), 0) >= FAILURES;
  }

  void failed(ModelCall call) {
    failures.merge(call.sameness(), 1, Integer::sum);
  }

  static boolean failed(CallState state) {
    return state == CallState.FAILED || state == CallState.BLOCKED || state == CallState.DECLINED;
  }
}
