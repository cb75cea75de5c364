package dev.steward.app.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.ToolDefinition;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Which tools a request offers the model in full. Each pack adds tools, and their schemas come
 * out of the model's context: with a small model (8,192 tokens is common) the tools alone could
 * take most of it and leave the conversation none. So when all of them would take more than a
 * share of the context, a request offers in full the tools the conversation has used or opened,
 * then others in the service's order while they fit, and names the rest in one small tool
 * ({@value #NAME}) that opens them. Only what is offered changes: every call, offered or not,
 * still goes to the service's gate.
 */
final class ToolShelf {

  static final String NAME = "steward__more_tools";

  /** The most of the context the offered tools may take when not all fit. */
  static final double SHARE = 0.35;

  /** What one request offers: the specifications, their tokens, the model names left out. */
  record Offer(List<ToolSpecification> specifications, int tokens, List<String> shelved) {}

  private ToolShelf() {}

  static boolean named(String name) {
    return ToolNames.key(name).equals(ToolNames.key(NAME))
        || ToolNames.key(name).equals("more_tools");
  }

  static Offer offer(
      RemoteTools tools, List<ChatMessage> history, Set<String> opened, int contextTokens) {
    if (tools.specificationTokens() <= contextTokens * SHARE) {
      return new Offer(tools.specifications(), tools.specificationTokens(), List.of());
    }
    Set<String> wanted = new LinkedHashSet<>(opened);
    for (ChatMessage m : history) {
      if (m instanceof AiMessage a && a.hasToolExecutionRequests()) {
        for (ToolExecutionRequest r : a.toolExecutionRequests()) {
          if (r.name() != null) tools.forModelName(r.name()).ifPresent(d -> wanted.add(d.name()));
        }
      }
    }
    int room = (int) (contextTokens * SHARE);
    List<ToolSpecification> offered = new ArrayList<>();
    List<String> shelved = new ArrayList<>();
    java.util.Map<String, Integer> groups = new java.util.LinkedHashMap<>();
    int tokens = 0;
    List<ToolDefinition> ordered = new ArrayList<>();
    for (ToolDefinition d : tools.definitions()) if (wanted.contains(d.name())) ordered.add(d);
    for (ToolDefinition d : tools.definitions()) if (!wanted.contains(d.name())) ordered.add(d);
    for (ToolDefinition d : ordered) {
      int cost = tools.tokens(d.name());
      if (wanted.contains(d.name()) || tokens + cost <= room) {
        offered.add(tools.specification(d.name()));
        tokens += cost;
      } else {
        shelved.add(tools.modelName(d.name()));
        groups.merge(group(d.name()), 1, Integer::sum);
      }
    }
    if (!shelved.isEmpty()) {
      ToolSpecification more = specification(groups);
      offered.add(more);
      tokens += ContextWindow.tokens(more.name() + more.description() + more.parameters());
    }
    return new Offer(List.copyOf(offered), tokens, List.copyOf(shelved));
  }

  /** A tool's group: its name but the last part ({@code grocery}, {@code mcp.notes}). */
  static String group(String tool) {
    int dot = tool.lastIndexOf('.');
    return dot < 0 ? tool : tool.substring(0, dot);
  }

  /** Names the groups left out, with how many tools each has: a few tokens, however many. */
  static ToolSpecification specification(java.util.Map<String, Integer> groups) {
    List<String> listed = new ArrayList<>();
    groups.forEach((g, n) -> listed.add(g + " (" + n + ")"));
    return ToolSpecification.builder()
        .name(NAME)
        .description("More tools, not shown to save room, by group: " + String.join(", ", listed)
            + ". Open a group or a tool by name, then call its tools. Example: {\"tools\": [\""
            + groups.keySet().iterator().next() + "\"]}")
        .parameters(JsonObjectSchema.builder()
            .addProperty(
                "tools",
                JsonArraySchema.builder()
                    .items(JsonStringSchema.builder().build())
                    .build())
            .required("tools")
            .build())
        .build();
  }

  /** Opens the tools asked for (added to {@code opened}); answers what each does, or why not. */
  static String answer(RemoteTools tools, @Nullable String arguments, Set<String> opened) {
    JsonNode args;
    try {
      String raw = arguments == null || arguments.isBlank() ? "{}" : arguments;
      args = Json.parse(raw);
      if (args.isTextual()) args = Json.parse(args.asText());
    } catch (IOException e) {
      return "Give {\"tools\": [names]}.";
    }
    StringBuilder out = new StringBuilder();
    for (JsonNode n : args.path("tools")) {
      String asked = n.asText().strip();
      List<ToolDefinition> members = tools.definitions().stream()
          .filter(t -> group(t.name()).equals(asked)
              || ToolNames.key(group(t.name())).equals(ToolNames.key(asked)))
          .toList();
      if (!members.isEmpty()) {
        for (ToolDefinition m : members) {
          opened.add(m.name());
          out.append(tools.modelName(m.name()))
              .append(" is open: ")
              .append(RemoteTools.description(m))
              .append('\n');
        }
        continue;
      }
      var d = tools.resolve(asked);
      if (d.isEmpty()) {
        out.append(n.asText())
            .append(": no such tool; close: ")
            .append(String.join(", ", tools.nearest(n.asText(), 3)))
            .append('\n');
      } else {
        opened.add(d.get().name());
        out.append(tools.modelName(d.get().name()))
            .append(" is open: ")
            .append(RemoteTools.description(d.get()))
            .append('\n');
      }
    }
    return out.length() == 0 ? "Give {\"tools\": [names]}." : out.toString().strip();
  }
}
