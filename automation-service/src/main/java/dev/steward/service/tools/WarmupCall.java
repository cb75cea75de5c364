package dev.steward.service.tools;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A call a pack offers for the service to run on idle after it starts, on data the pack made for
 * it in its own scratch folder (never the user's files), so that a user's first calls find the code
 * loaded and compiled. Its path arguments must lie inside that folder.
 */
public record WarmupCall(String tool, JsonNode args) {}
