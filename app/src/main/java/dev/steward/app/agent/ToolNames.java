package dev.steward.app.agent;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Steward's tool names are dotted ({@code files.write_text}); many models accept only
 * {@code [a-zA-Z0-9_-]}. Each name gets a model name, and a model's answer is mapped back through
 * this table only: a name the table does not hold is unknown, never guessed at.
 */
public final class ToolNames {

  private static final Pattern MODEL_SAFE = Pattern.compile("[a-zA-Z0-9_-]{1,64}");

  private final Map<String, String> toModel = new LinkedHashMap<>();
  private final Map<String, String> toTool = new LinkedHashMap<>();

  public ToolNames(Collection<String> toolNames) {
    for (String tool : toolNames) {
      String base = tool.replace(".", "__");
      if (!MODEL_SAFE.matcher(base).matches()) base = base.replaceAll("[^a-zA-Z0-9_-]", "_");
      if (base.length() > 60) base = base.substring(0, 60);
      String candidate = base;
      for (int n = 2; toTool.containsKey(candidate); n++) candidate = base + "-" + n;
      toModel.put(tool, candidate);
      toTool.put(candidate, tool);
    }
  }

  public String modelName(String tool) {
    String name = toModel.get(tool);
    if (name == null) throw new IllegalArgumentException("not a listed tool: " + tool);
    return name;
  }

  public Optional<String> toolName(String modelName) {
    return Optional.ofNullable(toTool.get(modelName));
  }
}
