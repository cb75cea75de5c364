package dev.steward.app.agent;

import dev.steward.protocol.json.CanonicalJson;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Steward's tool names are dotted ({@code files.write_text}); many models accept only
 * {@code [a-zA-Z0-9_-]}. Each name gets a model name, and a model's answer is mapped back through
 * this table. Small models confuse the separators ({@code files.write_text}, {@code
 * files_write_text}); {@link #loosely} forgives that, and only where the name it was given can mean
 * one tool and no other: a name that could be two is unknown, never guessed at.
 */
public final class ToolNames {

  private static final Pattern MODEL_SAFE = Pattern.compile("[a-zA-Z0-9_-]{1,64}");

  private final Map<String, String> toModel = new LinkedHashMap<>();
  private final Map<String, String> toTool = new LinkedHashMap<>();
  /** Separator-blind keys; a key two tools share maps to nothing. */
  private final Map<String, Optional<String>> byKey = new LinkedHashMap<>();

  public ToolNames(Collection<String> toolNames) {
    for (String tool : toolNames) {
      String base = tool.replace(".", "__");
      // A name that had to be cut or changed to be model-safe could read like another's: it ends
      // in a part of its own name's hash, so that it names the same tool whatever the listing's
      // order (a name from an earlier turn never comes to mean another tool).
      if (!MODEL_SAFE.matcher(base).matches() || base.length() > 57) {
        String safe = base.replaceAll("[^a-zA-Z0-9_-]", "_");
        base = safe.substring(0, Math.min(safe.length(), 57))
            + "-"
            + CanonicalJson.sha256Hex(tool.getBytes(StandardCharsets.UTF_8)).substring(0, 6);
      }
      String candidate = base;
      for (int n = 2; toTool.containsKey(candidate); n++) {
        String suffix = "-" + n;
        candidate = base.substring(0, Math.min(base.length(), 64 - suffix.length())) + suffix;
      }
      toModel.put(tool, candidate);
      toTool.put(candidate, tool);
      byKey.merge(key(tool), Optional.of(tool), (a, b) -> Optional.empty());
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

  /**
   * The tool a name means when separators and case are ignored ({@code files.write_text}, {@code
   * files_write_text}, {@code functions.files__write_text}); empty when none, or more than one.
   */
  public Optional<String> loosely(String name) {
    Optional<String> exact = toolName(name);
    if (exact.isPresent()) return exact;
    String key = key(name);
    Optional<String> found = byKey.getOrDefault(key, Optional.empty());
    if (found.isEmpty() && key.startsWith(CALL_PREFIX))
      found = byKey.getOrDefault(key.substring(CALL_PREFIX.length()), Optional.empty());
    return found;
  }

  /** What models trained on one vendor's format put before a function's name. */
  private static final String CALL_PREFIX = "functions_";

  private static final Pattern SEPARATORS = Pattern.compile("[^a-z0-9]+");

  static String key(String name) {
    return SEPARATORS.matcher(name.toLowerCase(Locale.ROOT)).replaceAll("_");
  }
}
