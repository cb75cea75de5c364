package dev.steward.service.tools;

import com.fasterxml.jackson.databind.JsonSerializable;

/**
 * A part of a result that writes itself to the wire (put in the result as a POJO node): a listing
 * of tens of thousands of entries costs about a quarter of the memory and time this way that a
 * tree of nodes would. It bounds its own size for the gate's output limit.
 */
public interface WireValue extends JsonSerializable {

  /** An upper bound of the serialised size in UTF-8 bytes. */
  long maxBytes();

  /** How many items it holds, for summaries. */
  int count();

  /** An upper bound of a string's serialised size, quotes included, escapes counted at their longest. */
  static long stringBound(String s) {
    long n = 2;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c == '"' || c == '\\') n += 6;
      else if (c < 0x80) n += 1;
      else if (c < 0x800) n += 2;
      else n += 3;
    }
    return n;
  }
}
