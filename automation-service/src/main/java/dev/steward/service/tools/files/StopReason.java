package dev.steward.service.tools.files;

/**
 * Why a listing or a search stopped short, in the words a summary gives it (the audit log, the
 * chat's card); the result keeps the code ({@code stopped_because}) for clients.
 */
final class StopReason {

  private StopReason() {}

  static String inWords(String code) {
    return switch (code) {
      case "max_results" -> "stopped at the result limit";
      case "max_entries" -> "stopped at the entry limit";
      case "max_bytes" -> "stopped at the size limit";
      case "time_limit" -> "stopped at the time limit";
      case "cancelled" -> "stopped: cancelled";
      default -> "stopped: " + code;
    };
  }
}
