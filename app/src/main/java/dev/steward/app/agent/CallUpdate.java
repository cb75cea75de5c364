package dev.steward.app.agent;

import com.fasterxml.jackson.databind.JsonNode;
import org.jspecify.annotations.Nullable;

/**
 * A change to a call's card: its new state, a line saying why, the arguments that actually ran
 * (when the user edited them) and the result as shown to the user.
 */
public record CallUpdate(
    String callId,
    CallState state,
    String detail,
    @Nullable JsonNode ranArgs,
    @Nullable String result) {}
