package dev.steward.app.agent;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import java.util.ArrayList;
import java.util.List;

/**
 * What of a conversation is sent to the model, within its context in tokens. The history itself is
 * never changed: the full results stay there (and in the audit log). Over the budget, the earlier
 * turns' tool results are shortened first, oldest first, each saying how to read on ({@link
 * Recall}); then the oldest turns are left out, whole, and the system prompt says so; last, the
 * current turn's own results are shortened, largest first. A conversation never fails for being
 * long.
 */
final class ContextWindow {

  /** What a shortened result keeps of its text. */
  static final int SHORT_RESULT_CHARS = 600;

  /**
   * The messages to send, their estimated tokens, whether a result was shortened, and how many
   * messages were left out.
   */
  record View(List<ChatMessage> messages, int tokens, boolean shortened, int leftOut) {

    /** Whether the model should be offered {@link Recall}: something it was given is not all here. */
    boolean partial() {
      return shortened || leftOut > 0;
    }
  }

  private ContextWindow() {}

  /**
   * A conservative estimate: about three characters a token (JSON and code run denser than prose),
   * and a few tokens of framing per message. The servers do not count before they are sent to.
   */
  static int tokens(String text) {
    return (text.length() + 2) / 3 + 4;
  }

  static int tokens(ChatMessage m) {
    if (m instanceof UserMessage u) return u.hasSingleText() ? tokens(u.singleText()) : 1000;
    if (m instanceof AiMessage a) {
      int n = tokens(a.text() == null ? "" : a.text());
      if (a.hasToolExecutionRequests())
        for (ToolExecutionRequest r : a.toolExecutionRequests())
          n += tokens(String.valueOf(r.name()) + r.arguments()) + 10;
      return n;
    }
    if (m instanceof ToolExecutionResultMessage t) return tokens(t.text());
    if (m instanceof SystemMessage s) return tokens(s.text());
    return 100;
  }

  /** The history (system prompt first) fitted to {@code budget} tokens. */
  static View fit(List<ChatMessage> history, int budget) {
    List<ChatMessage> view = new ArrayList<>(history);
    int total = view.stream().mapToInt(ContextWindow::tokens).sum();
    if (total <= budget) return new View(view, total, false, 0);
    int[] ordinal = Recall.ordinals(history);
    int current = currentTurn(view);
    boolean shortened = false;
    for (int i = 1; i < current && total > budget; i++) {
      if (view.get(i) instanceof ToolExecutionResultMessage t) {
        ToolExecutionResultMessage s = shortened(t, ordinal[i]);
        if (s != t) {
          total += tokens(s) - tokens(t);
          view.set(i, s);
          shortened = true;
        }
      }
    }
    int leftOut = 0;
    int resultsLeftOut = 0;
    // Once turns are left out, the system prompt says so: its words are counted from the first.
    int note = tokens(leftOutNote(99_999, 99_999)) - 4;
    while (current > 1 && total + (leftOut > 0 ? note : 0) > budget) {
      int end = 2;
      while (end < current && !(view.get(end) instanceof UserMessage)) end++;
      for (int i = 1; i < end; i++) {
        total -= tokens(view.get(i));
        if (view.get(i) instanceof ToolExecutionResultMessage) resultsLeftOut++;
      }
      view.subList(1, end).clear();
      leftOut += end - 1;
      current -= end - 1;
    }
    if (leftOut > 0) total += note;
    if (total > budget) {
      int offset = leftOut;
      List<Integer> largest = new ArrayList<>();
      for (int i = current; i < view.size(); i++)
        if (view.get(i) instanceof ToolExecutionResultMessage) largest.add(i);
      largest.sort((a, b) -> Integer.compare(tokens(view.get(b)), tokens(view.get(a))));
      for (int i : largest) {
        if (total <= budget) break;
        ToolExecutionResultMessage t = (ToolExecutionResultMessage) view.get(i);
        ToolExecutionResultMessage s = shortened(t, ordinal[i + offset]);
        total += tokens(s) - tokens(t);
        view.set(i, s);
        shortened = true;
      }
    }
    if (leftOut > 0) {
      SystemMessage system = (SystemMessage) view.get(0);
      SystemMessage told = SystemMessage.from(system.text() + leftOutNote(leftOut, resultsLeftOut));
      total += tokens(told) - tokens(system) - note;
      view.set(0, told);
    }
    return new View(view, total, shortened, leftOut);
  }

  private static String leftOutNote(int messages, int results) {
    return "\n\n(The conversation's first " + messages
        + " messages are left out here to fit the model's context."
        + (results == 0
            ? ""
            : " Their tool results, " + Recall.id(1) + " to " + Recall.id(results)
                + " in order, can still be read with " + Recall.NAME + ".")
        + ")";
  }

  private static final java.util.regex.Pattern OVERFLOW = java.util.regex.Pattern.compile(
      "(?i)context[ _](length|size|window)|exceeds? the (available )?context|maximum context");

  /** Whether a server's error says the request was longer than the model's context. */
  static boolean overflowed(String error) {
    return OVERFLOW.matcher(error).find();
  }

  /** Where the current turn starts: the last user message (1 when there is none). */
  private static int currentTurn(List<ChatMessage> view) {
    for (int i = view.size() - 1; i >= 1; i--) if (view.get(i) instanceof UserMessage) return i;
    return 1;
  }

  /**
   * The result's first characters, closed where it was wrapped as untrusted, and how to read the
   * rest; the result itself when it is short already. {@code ordinal} is its place among the
   * conversation's results, from 1.
   */
  static ToolExecutionResultMessage shortened(ToolExecutionResultMessage t, int ordinal) {
    String text = t.text();
    if (text.length() <= SHORT_RESULT_CHARS + 200) return t;
    String head = text.substring(0, SHORT_RESULT_CHARS);
    if (head.contains("<untrusted>") && !head.contains("</untrusted>")) head += "…\n</untrusted>";
    String note = "\n[Result " + Recall.id(ordinal) + " shortened to fit the context: "
        + SHORT_RESULT_CHARS + " of " + text.length() + " characters shown. To read on, call "
        + Recall.NAME + " with {\"result\": \"" + Recall.id(ordinal) + "\", \"from\": "
        + SHORT_RESULT_CHARS + "}.]";
    return ToolExecutionResultMessage.from(t.id(), t.toolName(), head + note);
  }
}
