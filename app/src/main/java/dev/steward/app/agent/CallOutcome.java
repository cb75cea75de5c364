package dev.steward.app.agent;

/** How a call ended, and the text the model is given about it. */
public record CallOutcome(String callId, CallState state, String forModel) {}
