package dev.steward.service.tools.sample;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.PackSettings;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.tools.BaseTool;
import dev.steward.service.tools.PackContext;
import dev.steward.service.tools.Tool;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolDefinitions;
import dev.steward.service.tools.ToolFailure;
import dev.steward.service.tools.ToolPack;
import dev.steward.service.tools.UndoContext;
import dev.steward.service.undo.UndoRecord;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A pack that lives only in the test sources, found by the service through {@code ServiceLoader}
 * like any other: named tallies in memory, one read tool and one undoable write tool. It shows a
 * pack needs nothing of the gate, the transport or the audit log.
 */
public final class SamplePack implements ToolPack {

  private final Map<String, Long> tallies = new ConcurrentHashMap<>();
  /** What {@code sample.beacon} "sent" (every service started in a test JVM shares it). */
  public static final List<String> SENT = new java.util.concurrent.CopyOnWriteArrayList<>();

  @Override
  public String name() {
    return "sample";
  }

  /** Its own settings section, kept under {@code packs.sample}: a pack needs no key of its own. */
  @Override
  public Optional<PackSettings.Section> settings() {
    return Optional.of(new PackSettings.Section(
        name(),
        "Sample greetings",
        "How sample.greet greets.",
        "packs.sample",
        List.of(
            PackSettings.Field.text("greeting", "Greeting", "", "hello").asRequired(),
            PackSettings.Field.toggle("loud", "Greet loudly", "In capitals.", false),
            new PackSettings.Field(
                "mood",
                "Mood",
                PackSettings.Kind.CHOICE,
                "",
                "calm",
                List.of("calm", "cheerful"),
                false),
            PackSettings.Field.secret("token", "Token", "Never shown again."))));
  }

  @Override
  public List<Tool> tools(PackContext context) {
    return List.of(new Add(), new Get(), new Beacon(), new Wait(), new Greet(context));
  }

  private static final class Greet extends BaseTool {
    private static final ToolDefinition DEFINITION =
        ToolDefinitions.load(SamplePack.class, "sample.greet.json");
    private final PackContext context;

    Greet(PackContext context) {
      super(DEFINITION);
      this.context = context;
    }

    @Override
    public JsonNode run(JsonNode args, ToolContext ctx) {
      JsonNode mine = context.policy().get().packSettings("sample");
      String greeting = mine.path("greeting").asText("hello");
      if (mine.path("loud").asBoolean(false)) greeting = greeting.toUpperCase(Locale.ROOT);
      return Json.object()
          .put("greeting", greeting)
          .put("mood", mine.path("mood").asText("calm"))
          .put("token_set", context.secrets().get("sample", "token").isPresent());
    }
  }

  private static ObjectNode tally(String name, long value) {
    ObjectNode n = Json.object();
    n.put("name", name);
    n.put("value", value);
    return n;
  }

  private final class Add extends BaseTool {
    private static final ToolDefinition DEFINITION =
        ToolDefinitions.load(SamplePack.class, "sample.tally_add.json");

    Add() {
      super(DEFINITION);
    }

    @Override
    public boolean destructive(JsonNode args, ToolContext ctx) {
      return tallies.containsKey(args.path("name").asText());
    }

    /** Checks that break on a tally named "unchecked": the gate must refuse, not fall over. */
    @Override
    public void checkArgs(JsonNode args) {
      if (args.path("name").asText().equals("unchecked"))
        throw new IllegalStateException("a tool's own bug");
    }

    /** A summary that breaks on a tally named "unsummed": the call still ends with its row. */
    @Override
    public String summarize(JsonNode args, JsonNode value) {
      if (args.path("name").asText().equals("unsummed"))
        throw new IllegalStateException("a tool's own bug");
      return "ok";
    }

    /** A look that breaks on a tally named "broken": the gate must refuse, not fall over. */
    @Override
    public void checkNow(JsonNode args, ToolContext ctx) {
      if (args.path("name").asText().equals("broken"))
        throw new IllegalStateException("a tool's own bug");
    }

    @Override
    public JsonNode run(JsonNode args, ToolContext ctx) throws ToolFailure {
      String name = args.path("name").asText();
      Long before = tallies.get(name);
      if (before != null && !ctx.approvedDestructive()) {
        throw new ToolFailure(
            ToolErrorCodes.ALREADY_EXISTS,
            "the tally \"" + name + "\" appeared after the check",
            "/name",
            null);
      }
      long after = (before == null ? 0 : before) + args.path("by").asLong();
      ObjectNode previous = Json.object();
      previous.put("name", name);
      if (before != null) previous.put("value", before);
      try {
        ctx.undo().save(UndoRecord.of(name(), "set", previous));
      } catch (IOException e) {
        throw new ToolFailure(
            ToolErrorCodes.EXECUTION_ERROR, "cannot keep the tally's old value: " + e.getMessage());
      }
      tallies.put(name, after);
      return tally(name, after);
    }

    @Override
    public JsonNode undo(UndoRecord record, UndoContext ctx) throws ToolFailure {
      JsonNode previous = record.data();
      if (previous == null)
        throw new ToolFailure(ToolErrorCodes.INTERNAL, "the undo record holds no value");
      String name = previous.path("name").asText();
      if (previous.has("value")) tallies.put(name, previous.get("value").asLong());
      else tallies.remove(name);
      return Json.mapper().createArrayNode().add(name);
    }
  }

  private final class Get extends BaseTool {
    private static final ToolDefinition DEFINITION =
        ToolDefinitions.load(SamplePack.class, "sample.tally_get.json");

    Get() {
      super(DEFINITION);
    }

    @Override
    public JsonNode run(JsonNode args, ToolContext ctx) throws ToolFailure {
      String name = args.path("name").asText();
      Long value = tallies.get(name);
      if (value == null)
        throw new ToolFailure(
            ToolErrorCodes.NOT_FOUND, "no tally named \"" + name + "\"", "/name", null);
      return tally(name, value);
    }
  }

  private static final class Beacon extends BaseTool {
    private static final ToolDefinition DEFINITION =
        ToolDefinitions.load(SamplePack.class, "sample.beacon.json");

    Beacon() {
      super(DEFINITION);
    }

    @Override
    public JsonNode run(JsonNode args, ToolContext ctx) {
      SENT.add(args.path("message").asText());
      return Json.object().put("sent", SENT.size());
    }
  }

  private static final class Wait extends BaseTool {
    private static final ToolDefinition DEFINITION =
        ToolDefinitions.load(SamplePack.class, "sample.wait.json");

    Wait() {
      super(DEFINITION);
    }

    @Override
    public JsonNode run(JsonNode args, ToolContext ctx) throws ToolFailure {
      long start = System.nanoTime();
      long until = start + args.path("millis").asLong() * 1_000_000;
      while (System.nanoTime() < until) {
        ToolContext.checkCancelled();
        try {
          Thread.sleep(10);
        } catch (InterruptedException e) {
          throw new ToolFailure(ToolErrorCodes.CANCELLED, "the call was cancelled");
        }
      }
      return Json.object().put("waited", (System.nanoTime() - start) / 1_000_000);
    }
  }
}
