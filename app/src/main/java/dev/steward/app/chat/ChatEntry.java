package dev.steward.app.chat;

/** One item of the conversation: a message or a tool call card. */
public sealed interface ChatEntry permits MessageEntry, CallCard {}
