package dev.steward.protocol.method;

import org.jspecify.annotations.Nullable;

/** The {@code tool.progress} notification for long calls. */
public record ToolProgress(
    String traceId, String callId, String message, @Nullable Double fraction) {}
