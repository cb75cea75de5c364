package dev.steward.service.transport;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * What a call's thread does once its caller has the answer: the window's copy of each result
 * ({@code tool.results}), which took a sixth of the thread's time on a call to an external server
 * and was written before the caller's own answer. On a thread that has no answer on its way (the
 * window's own checks, Streamable HTTP's requests), it is done at once.
 */
final class AfterAnswer {

  private static final Logger LOG = Logger.getLogger(AfterAnswer.class.getName());
  private static final ThreadLocal<@Nullable List<Runnable>> LATER = new ThreadLocal<>();

  private AfterAnswer() {}

  /** This thread's answer is on its way: what is asked {@link #later} waits for {@link #done}. */
  static void answering() {
    LATER.set(new ArrayList<>());
  }

  static void later(Runnable work) {
    List<Runnable> waiting = LATER.get();
    if (waiting == null) {
      work.run();
    } else {
      waiting.add(work);
    }
  }

  /** The answer is sent: what waited for it is done now. */
  static void done() {
    List<Runnable> waiting = LATER.get();
    LATER.remove();
    if (waiting == null) return;
    for (Runnable work : waiting) {
      try {
        work.run();
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "work after an answer failed", e);
      }
    }
  }
}
