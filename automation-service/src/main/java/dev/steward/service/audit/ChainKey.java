package dev.steward.service.audit;

import java.util.Arrays;

/**
 * How rows are sealed: from {@code keyedFrom} on, each row's hash is an HMAC-SHA256 under the
 * install's audit key (kept in {@code config/}, which no tool can reach), so whoever can rewrite
 * the data folder cannot recompute a consistent chain. Rows written before the key existed keep
 * their plain SHA-256 hashes.
 */
public record ChainKey(byte[] key, long keyedFrom) {

  public ChainKey {
    key = key.clone();
  }

  /** Plain SHA-256 for every row (tests of the chain's format, logs from before keys). */
  public static ChainKey none() {
    return new ChainKey(new byte[0], Long.MAX_VALUE);
  }

  public boolean keys(long seq) {
    return seq >= keyedFrom && key.length > 0;
  }

  @Override
  public byte[] key() {
    return key.clone();
  }

  boolean sameKey(byte[] other) {
    return Arrays.equals(key, other);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ChainKey k && k.keyedFrom == keyedFrom && Arrays.equals(k.key, key);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(keyedFrom) * 31 + Arrays.hashCode(key);
  }

  @Override
  public String toString() {
    return "ChainKey[keyed from " + keyedFrom + "]";
  }
}
