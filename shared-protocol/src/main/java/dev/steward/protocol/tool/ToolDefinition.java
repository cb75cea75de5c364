package dev.steward.protocol.tool;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A tool as clients see it (SPEC §2): its name, what it does, the JSON Schema (draft 2020-12) of
 * its arguments and of its result, and how careful the gate is with it. {@code mutates} says
 * whether any call of it can change anything, {@code sends} whether a call can carry data off the
 * machine (SPEC §10's trifecta rule), {@code undoable} whether {@code tool.undo} can put back what
 * its calls replaced.
 */
public record ToolDefinition(
    String name,
    String description,
    JsonNode argsSchema,
    JsonNode resultSchema,
    Risk risk,
    Confirmation confirmation,
    List<ScopeKind> scopes,
    boolean mutates,
    boolean sends,
    boolean undoable) {

  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)+");

  public ToolDefinition {
    Objects.requireNonNull(name, "name");
    if (!NAME.matcher(name).matches() || name.contains("__")) {
      throw new IllegalArgumentException("a tool name is dotted lower case: " + name);
    }
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(argsSchema, "args_schema");
    Objects.requireNonNull(resultSchema, "result_schema");
    Objects.requireNonNull(risk, "risk");
    Objects.requireNonNull(confirmation, "confirmation");
    scopes = List.copyOf(scopes);
  }

  /** A tool that only reads, sends nothing and keeps nothing to undo. */
  public ToolDefinition(
      String name,
      String description,
      JsonNode argsSchema,
      JsonNode resultSchema,
      Risk risk,
      Confirmation confirmation,
      List<ScopeKind> scopes) {
    this(
        name,
        description,
        argsSchema,
        resultSchema,
        risk,
        confirmation,
        scopes,
        false,
        false,
        false);
  }
}
