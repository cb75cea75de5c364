package dev.steward.app.agent;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.steward.protocol.tool.ToolDefinition;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The service's tools as the model sees them: one {@link ToolSpecification} per definition from
 * {@code tools.list}, under a model-safe name. Calls are never run here — they go back to the
 * service's gate (the way langchain4j-mcp forwards a model's calls to a remote server).
 */
public final class RemoteTools {

  private final Map<String, ToolDefinition> byName = new LinkedHashMap<>();
  private final ToolNames names;
  private final List<ToolSpecification> specifications;
  private final Map<String, ToolSpecification> specificationByTool = new LinkedHashMap<>();
  private final Map<String, Integer> tokensByTool = new LinkedHashMap<>();
  private final int specificationTokens;

  public RemoteTools(List<ToolDefinition> definitions) {
    definitions.forEach(d -> byName.put(d.name(), d));
    this.names = new ToolNames(byName.keySet());
    this.specifications = definitions.stream()
        .map(d -> ToolSpecification.builder()
            .name(names.modelName(d.name()))
            .description(description(d))
            .parameters(SchemaConverter.toObjectSchema(d.argsSchema()))
            .build())
        .toList();
    int total = 0;
    int i = 0;
    for (ToolDefinition d : definitions) {
      ToolSpecification t = specifications.get(i++);
      int tokens = ContextWindow.tokens(t.name() + t.description() + t.parameters());
      specificationByTool.put(d.name(), t);
      tokensByTool.put(d.name(), tokens);
      total += tokens;
    }
    this.specificationTokens = total;
  }

  /**
   * The tool's own description, its risk, and an example of its required arguments where it has
   * any: small models copy the example's shape.
   */
  static String description(ToolDefinition d) {
    String example =
        d.argsSchema().path("required").isEmpty() ? "" : " Example: " + CallRepair.example(d);
    return d.description() + " [risk: " + d.risk().wire() + "]" + example;
  }

  public List<ToolSpecification> specifications() {
    return specifications;
  }

  /** About what the tools' specifications take of the model's context, in tokens. */
  public int specificationTokens() {
    return specificationTokens;
  }

  /** One tool's specification (a tool of {@link #definitions()}). */
  ToolSpecification specification(String tool) {
    return java.util.Objects.requireNonNull(specificationByTool.get(tool), tool);
  }

  /** About what one tool's specification takes of the context, in tokens. */
  int tokens(String tool) {
    return tokensByTool.getOrDefault(tool, 0);
  }

  public List<ToolDefinition> definitions() {
    return List.copyOf(byName.values());
  }

  public Optional<ToolDefinition> definition(String tool) {
    return Optional.ofNullable(byName.get(tool));
  }

  /** The tool behind a name the model used, looked up in the table; empty when unknown. */
  public Optional<ToolDefinition> forModelName(String modelName) {
    return names.toolName(modelName).map(byName::get);
  }

  /**
   * The tool a model meant: by the table, or a name with confused separators that can mean only
   * one tool ({@link ToolNames#loosely}).
   */
  public Optional<ToolDefinition> resolve(String modelName) {
    return names.loosely(modelName).map(byName::get);
  }

  /**
   * Up to {@code limit} model names closest to one that names no tool, closest first; a tool's
   * name is compared with and without its pack ({@code list_directory} is near {@code
   * files.list_dir}).
   */
  public List<String> nearest(String name, int limit) {
    String key = ToolNames.key(name);
    return byName.keySet().stream()
        .sorted(Comparator.comparingInt((String tool) -> distance(key, tool))
            .thenComparing(Comparator.naturalOrder()))
        .limit(limit)
        .map(names::modelName)
        .toList();
  }

  public String modelName(String tool) {
    return names.modelName(tool);
  }

  private static int distance(String key, String tool) {
    int dot = tool.lastIndexOf('.');
    int whole = editDistance(key, ToolNames.key(tool));
    return dot < 0
        ? whole
        : Math.min(whole, editDistance(key, ToolNames.key(tool.substring(dot + 1))));
  }

  /** Levenshtein distance, two rows. */
  static int editDistance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] row = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) previous[j] = j;
    for (int i = 1; i <= a.length(); i++) {
      row[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        row[j] = Math.min(substitute, Math.min(previous[j], row[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = row;
      row = swap;
    }
    return previous[b.length()];
  }
}
