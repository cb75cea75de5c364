package dev.steward.protocol.util;

/**
 * A number with its noun, singular for one ("1 entry", "2 entries"), for every text a person reads:
 * audit summaries, cards, dialogs, Settings. The digits stay as they are (no grouping by locale),
 * so a row's text reads the same on every machine.
 */
public final class Counted {

  private Counted() {}

  public static String of(long n, String one, String many) {
    return n + " " + (n == 1 ? one : many);
  }
}
