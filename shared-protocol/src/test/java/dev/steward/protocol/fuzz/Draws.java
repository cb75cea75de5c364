package dev.steward.protocol.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import java.util.Random;

/**
 * Where a property test gets its choices: a seeded {@link Random} in the fast tests every build
 * runs, a fuzzer's data in {@code ./steward fuzz} (coverage-guided, Jazzer). One property, two
 * drivers.
 */
public interface Draws {

  /** A number in {@code [0, bound)}. */
  int pick(int bound);

  boolean bool();

  long number(long min, long max);

  String text(int maxLength);

  /** Characters that need escaping, or are more than one byte, or half of a pair. */
  String ODD = "\"\\/\n\t é€𝄞";

  static Draws of(Random random) {
    return new Draws() {
      @Override
      public int pick(int bound) {
        return random.nextInt(bound);
      }

      @Override
      public boolean bool() {
        return random.nextBoolean();
      }

      @Override
      public long number(long min, long max) {
        return min + (long) (random.nextDouble() * ((double) max - min));
      }

      @Override
      public String text(int maxLength) {
        int n = random.nextInt(maxLength + 1);
        StringBuilder b = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
          int kind = random.nextInt(10);
          b.append(
              kind < 6
                  ? (char) ('a' + random.nextInt(26))
                  : kind < 8
                      ? ODD.charAt(random.nextInt(ODD.length()))
                      : (char) random.nextInt(0x3000));
        }
        return b.toString();
      }
    };
  }

  static Draws of(FuzzedDataProvider data) {
    return new Draws() {
      @Override
      public int pick(int bound) {
        return data.consumeInt(0, bound - 1);
      }

      @Override
      public boolean bool() {
        return data.consumeBoolean();
      }

      @Override
      public long number(long min, long max) {
        return data.consumeLong(min, max);
      }

      @Override
      public String text(int maxLength) {
        return data.consumeString(maxLength);
      }
    };
  }
}
