package dev.steward.app.settings;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The methods a tool pack offers the window (ui role), such as {@code calendar.check}: answered as
 * the pack wrote it. Throws with the service's reason when refused.
 */
@FunctionalInterface
public interface PackCalls {

  JsonNode call(String method, JsonNode params);
}
