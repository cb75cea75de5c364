package dev.steward.service.tools.household;

import java.util.List;
import java.util.Set;

/**
 * Seed 001's allowed units, and only those. Units are never converted: a pound of chicken and 500
 * g of chicken are two items until the user says otherwise.
 */
final class Units {

  static final List<String> ALLOWED = List.of(
      "cup", "tbsp", "tsp", "ml", "l", "fl oz", "lb", "oz", "g", "kg", "whole", "piece", "can",
      "package");

  private static final Set<String> SET = Set.copyOf(ALLOWED);

  private Units() {}

  static void check(String unit, String field) throws dev.steward.service.tools.ToolFailure {
    if (!SET.contains(unit)) {
      throw Failures.invalid(
          field, "\"" + unit + "\" is not an allowed unit; allowed: " + String.join(", ", ALLOWED));
    }
  }
}
