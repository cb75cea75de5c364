package dev.steward.protocol.util;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Threads that never keep the process alive: Steward's processes end when their main work does
 * (the window closes, the service is told to stop), whatever a background thread is doing.
 */
public final class DaemonThreads {

  private DaemonThreads() {}

  /** Daemon threads named {@code name}, then {@code name-2}, {@code name-3}… for a pool. */
  public static ThreadFactory named(String name) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      int i = n.incrementAndGet();
      Thread t = new Thread(r, i == 1 ? name : name + "-" + i);
      t.setDaemon(true);
      return t;
    };
  }

  /** Starts {@code work} on a daemon thread of its own. */
  public static Thread start(String name, Runnable work) {
    Thread t = named(name).newThread(work);
    t.start();
    return t;
  }
}
