package dev.steward.protocol.method;

import dev.steward.protocol.tool.ToolResult;

/** The {@code tool.results} notification sent to ui connections when a call finishes. */
public record ToolResults(String traceId, String callId, String tool, ToolResult result) {}
