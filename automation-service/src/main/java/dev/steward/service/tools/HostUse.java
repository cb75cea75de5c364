package dev.steward.service.tools;

/** A URL argument of a call ({@code pointer} names it) that the gate checks against the host scope. */
public record HostUse(String pointer, String url) {}
