package dev.steward.app.settings;

/** A model a server offers, and whether it can call tools (Steward acts only through tools). */
public record OfferedModel(String name, boolean callsTools) {}
