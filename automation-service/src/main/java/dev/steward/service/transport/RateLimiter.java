package dev.steward.service.transport;

/** A token bucket: {@code perSecond} messages a second on average, bursts up to one second's worth. */
final class RateLimiter {

  private final double perNano;
  private final double capacity;
  private double tokens;
  private long last;

  RateLimiter(int perSecond) {
    this.perNano = perSecond / 1e9;
    this.capacity = perSecond;
    this.tokens = perSecond;
    this.last = System.nanoTime();
  }

  synchronized boolean tryAcquire(int n) {
    long now = System.nanoTime();
    tokens = Math.min(capacity, tokens + (now - last) * perNano);
    last = now;
    if (tokens < n) return false;
    tokens -= n;
    return true;
  }
}
