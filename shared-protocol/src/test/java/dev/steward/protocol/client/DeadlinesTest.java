package dev.steward.protocol.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

class DeadlinesTest {

  private final Deadlines deadlines = new Deadlines();

  @Test
  void aLateRequestFailsWithATimeoutAndAnAnsweredOneDoesNot() throws Exception {
    CompletableFuture<String> answered = new CompletableFuture<>();
    CompletableFuture<String> late = new CompletableFuture<>();
    deadlines.watch(1, answered, TimeUnit.MILLISECONDS.toNanos(150));
    deadlines.watch(2, late, TimeUnit.MILLISECONDS.toNanos(150));
    answered.complete("yes");
    ExecutionException e =
        assertThrows(ExecutionException.class, () -> late.get(5, TimeUnit.SECONDS));
    assertInstanceOf(TimeoutException.class, e.getCause());
    assertEquals("yes", answered.get());
  }

  @Test
  void aShorterDeadlineAfterALongerOneIsKept() throws Exception {
    CompletableFuture<String> patient = new CompletableFuture<>();
    CompletableFuture<String> hasty = new CompletableFuture<>();
    deadlines.watch(1, patient, TimeUnit.SECONDS.toNanos(60));
    long start = System.nanoTime();
    deadlines.watch(2, hasty, TimeUnit.MILLISECONDS.toNanos(100));
    assertThrows(ExecutionException.class, () -> hasty.get(5, TimeUnit.SECONDS));
    assertTrue(
        System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5),
        "the shorter deadline did not wait for the longer one");
    assertFalse(patient.isDone(), "a request within its time is left waiting");
  }

  @Test
  void eachOfManyLateRequestsFailsWhenItsOwnTimeComes() throws Exception {
    CompletableFuture<?>[] requests = new CompletableFuture<?>[20];
    for (int i = 0; i < requests.length; i++) {
      requests[i] = new CompletableFuture<>();
      deadlines.watch(i, requests[i], TimeUnit.MILLISECONDS.toNanos(20L * (i + 1)));
    }
    CompletableFuture<?> last = requests[requests.length - 1];
    assertThrows(ExecutionException.class, () -> last.get(5, TimeUnit.SECONDS));
    for (CompletableFuture<?> r : requests) {
      assertTrue(
          r.isCompletedExceptionally(), "every late request has failed by the last one's time");
    }
  }
}
