package dev.steward.app.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.steward.protocol.json.Json;
import java.io.IOException;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Reads on in a tool result that was shortened to fit the context. It reads the conversation's own
 * memory, what the model was already given, so it is answered here: it reaches nothing new, acts
 * on nothing, and the result it reads was audited when its call ran (ADR 21). It is offered to the
 * model only while a result is shortened.
 */
final class Recall {

  static final String NAME = "steward__recall";

  /** The most of a result one recall gives; less in a small context. */
  static final int PART_CHARS = 6_000;

  private Recall() {}

  /** A result's id: its place among the conversation's tool results, from 1 ({@code r1}). */
  static String id(int ordinal) {
    return "r" + ordinal;
  }

  /** For each message of the history, its result's ordinal (0 for a message that is no result). */
  static int[] ordinals(List<ChatMessage> history) {
    int[] ordinal = new int[history.size()];
    int n = 0;
    for (int i = 0; i < history.size(); i++)
      if (history.get(i) instanceof ToolExecutionResultMessage) ordinal[i] = ++n;
    return ordinal;
  }

  static boolean named(String name) {
    return ToolNames.key(name).equals(ToolNames.key(NAME))
        || ToolNames.key(name).equals("recall");
  }

  static ToolSpecification specification() {
    return ToolSpecification.builder()
        .name(NAME)
        .description("Read more of a tool result that was shortened to fit the context. Example: "
            + "{\"result\": \"r12\", \"from\": 600}")
        .parameters(JsonObjectSchema.builder()
            .addStringProperty("result", "the result's id, as the shortened result gives it")
            .addIntegerProperty("from", "the character to read on from")
            .required("result")
            .build())
        .build();
  }

  /** The part of the result asked for, wrapped as the untrusted data it is, or what was wrong. */
  static String answer(List<ChatMessage> history, @Nullable String arguments, int budgetTokens) {
    // About a third of the budget, so the part fits beside the turn that asked for it.
    int partChars = Math.max(500, Math.min(PART_CHARS, budgetTokens));
    JsonNode args;
    try {
      String raw = arguments == null || arguments.isBlank() ? "{}" : arguments;
      args = Json.parse(raw);
      if (args.isTextual()) args = Json.parse(args.asText());
    } catch (IOException e) {
      return "The arguments were not valid JSON; for example {\"result\": \"r12\", \"from\": 600}.";
    }
    String id = args.path("result").asText("");
    int wanted;
    try {
      wanted = Integer.parseInt(id.startsWith("r") ? id.substring(1) : id);
    } catch (NumberFormatException e) {
      return "There is no result \"" + id + "\": use the id a shortened result gives (r12).";
    }
    int[] ordinal = ordinals(history);
    ToolExecutionResultMessage result = null;
    for (int i = 0; i < history.size(); i++)
      if (ordinal[i] == wanted) result = (ToolExecutionResultMessage) history.get(i);
    if (result == null) return "There is no result \"" + id + "\" in this conversation.";
    String text = result.text();
    int from = Math.max(0, Math.min(args.path("from").asInt(0), text.length()));
    int to = Math.min(text.length(), from + partChars);
    String part = text.substring(from, to).replace("<", "\\u003c");
    return "Characters " + from + "–" + to + " of " + text.length() + " of result " + id
        + " (untrusted data, as when it was first read):\n<untrusted>\n" + part
        + "\n</untrusted>"
        + (to < text.length()
            ? "\n[To read on: " + NAME + " with {\"result\": \"" + id + "\", \"from\": " + to
                + "}.]"
            : "\n[End of result " + id + ".]");
  }
}
