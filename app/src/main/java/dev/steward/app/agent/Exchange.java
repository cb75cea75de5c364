package dev.steward.app.agent;

/** One message of an earlier conversation, to give the model its context back. */
public record Exchange(boolean fromUser, String text) {}
