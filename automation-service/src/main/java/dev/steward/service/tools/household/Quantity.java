package dev.steward.service.tools.household;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import dev.steward.service.tools.ToolFailure;
import java.math.BigDecimal;

/**
 * Quantities are exact decimals (seed 001: "no AI arithmetic", and never binary floating point:
 * 0.1 + 0.2 is 0.3). On the wire they are JSON numbers; in a row image they are plain text.
 */
final class Quantity {

  /** The most a quantity may be, and the finest step it may have (a millionth). */
  static final BigDecimal MAX = new BigDecimal("100000");

  static final int MAX_SCALE = 6;

  private Quantity() {}

  /**
   * The exact value of a JSON number as it was written. A number read as a binary double is taken
   * by its shortest decimal spelling, which is the one it was written with for any number of up
   * to 15 significant digits.
   */
  static BigDecimal of(JsonNode node, String field) throws ToolFailure {
    if (!node.isNumber()) {
      throw Failures.invalid(field, "a quantity is a number (free-text quantities are not taken)");
    }
    BigDecimal value = node.isBigDecimal() || node.isIntegralNumber()
        ? node.decimalValue()
        : new BigDecimal(Double.toString(node.doubleValue()));
    if (value.signum() <= 0) throw Failures.invalid(field, "a quantity is more than 0");
    if (value.compareTo(MAX) > 0) {
      throw Failures.invalid(field, "a quantity is at most " + MAX.toPlainString());
    }
    BigDecimal plain = canonical(value);
    if (plain.scale() > MAX_SCALE) {
      throw Failures.invalid(field, "a quantity has at most " + MAX_SCALE + " decimal places");
    }
    return plain;
  }

  /** Without trailing zeros, never in exponent form: 3.250000 is 3.25, 1E+2 is 100. */
  static BigDecimal canonical(BigDecimal value) {
    BigDecimal stripped = value.stripTrailingZeros();
    return stripped.scale() < 0 ? stripped.setScale(0) : stripped;
  }

  static String text(BigDecimal value) {
    return canonical(value).toPlainString();
  }

  static JsonNode json(String text) {
    return DecimalNode.valueOf(canonical(new BigDecimal(text)));
  }

  /** {@code a + b}, refused (naming {@code field}) above {@link #MAX}. */
  static String sum(String a, BigDecimal b, String field) throws ToolFailure {
    BigDecimal total = new BigDecimal(a).add(b);
    if (total.compareTo(MAX) > 0) {
      throw Failures.invalid(
          field,
          "the merged quantity " + text(total) + " would be more than " + MAX.toPlainString());
    }
    return text(total);
  }
}
