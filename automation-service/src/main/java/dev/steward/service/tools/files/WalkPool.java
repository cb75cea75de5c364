package dev.steward.service.tools.files;

import java.util.concurrent.ForkJoinPool;

/**
 * The threads that walk folder trees for searches and listings: one per core (at least two), so a
 * big tree is opened, listed and read on every core. The common pool would give one thread on a
 * two-core machine.
 */
final class WalkPool {

  static final ForkJoinPool POOL = new ForkJoinPool(
      Math.max(2, Runtime.getRuntime().availableProcessors()),
      pool -> {
        var t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
        t.setName("files-walk-" + t.getPoolIndex());
        t.setDaemon(true);
        return t;
      },
      null,
      false);

  private WalkPool() {}
}
