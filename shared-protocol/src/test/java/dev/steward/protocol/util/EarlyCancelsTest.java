package dev.steward.protocol.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class EarlyCancelsTest {

  private final AtomicLong now = new AtomicLong();
  private final EarlyCancels cancels = new EarlyCancels(4, 10, Duration.ofSeconds(60), now::get);

  @Test
  void a_cancel_is_taken_once_by_its_call_and_only_in_its_own_scope() {
    cancels.add("a", "call-1");
    assertFalse(cancels.take("b", "call-1"), "another client's call of the same id");
    assertTrue(cancels.has("a", "call-1"));
    assertTrue(cancels.take("a", "call-1"));
    assertFalse(cancels.take("a", "call-1"), "taken once");
    assertEquals(0, cancels.size());
  }

  @Test
  void a_client_that_floods_it_displaces_only_its_own() {
    cancels.add("honest", "call-1");
    for (int i = 0; i < 1_000; i++) cancels.add("flood", "never-" + i);
    assertTrue(cancels.take("honest", "call-1"), "the honest client's cancel is kept");
    assertEquals(4, cancels.size(), "the flood keeps its newest four");
    assertTrue(cancels.has("flood", "never-999"));
    assertFalse(cancels.has("flood", "never-995"));
  }

  @Test
  void many_clients_together_are_bounded_and_old_cancels_go() {
    for (int client = 0; client < 5; client++) {
      for (int i = 0; i < 4; i++) cancels.add("client-" + client, "call-" + i);
    }
    assertEquals(10, cancels.size(), "at most ten in all");
    now.addAndGet(Duration.ofSeconds(61).toNanos());
    assertFalse(cancels.has("client-0", "call-0"), "a minute on, a cancel is forgotten");
    cancels.add("late", "call-x");
    assertEquals(1, cancels.size(), "the old ones were swept to make room");
    assertTrue(cancels.take("late", "call-x"));
  }

  @Test
  void a_flood_under_made_up_scopes_pushes_out_the_oldest_not_the_newest() {
    for (int i = 0; i < 1_000; i++) {
      now.incrementAndGet();
      cancels.add("made-up-" + i, "never");
    }
    now.incrementAndGet();
    cancels.add("honest", "call-1");
    assertEquals(10, cancels.size());
    assertTrue(cancels.take("honest", "call-1"), "the newest cancel is kept when it is full");
    assertTrue(cancels.has("made-up-999", "never"));
    assertFalse(cancels.has("made-up-990", "never"), "the oldest went to make room");
  }
}
