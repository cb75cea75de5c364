package dev.steward.service.tools.files;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;

/**
 * The threads that walk folder trees for searches and listings: one per core (at least two), so a
 * big tree is opened, listed and read on every core. The common pool would give one thread on a
 * two-core machine.
 */
final class WalkPool {

  static final ForkJoinPool POOL = new ForkJoinPool(
      Math.max(2, Runtime.getRuntime().availableProcessors()),
      pool -> {
        var t = new ForkJoinWorkerThread(pool) {
          // Named once registered: in the factory every worker's index still reads 0.
          @Override
          protected void onStart() {
            super.onStart();
            setName("files-walk-" + getPoolIndex());
          }
        };
        t.setDaemon(true);
        return t;
      },
      null,
      false);

  private WalkPool() {}
}
