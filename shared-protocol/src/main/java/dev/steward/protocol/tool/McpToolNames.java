package dev.steward.protocol.tool;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * How an external MCP server's tools are named in Steward (SPEC §12): {@code mcp.<server>.<tool>},
 * each part turned into the dotted lower-case words a tool name is made of ({@code getTinyImage}
 * becomes {@code get_tiny_image}, {@code brave-search} becomes {@code brave_search}). The server
 * keeps its own name for the calls Steward forwards.
 */
public final class McpToolNames {

  public static final String PREFIX = "mcp.";

  private static final Pattern CAMEL = Pattern.compile("([a-z0-9])([A-Z])");
  private static final Pattern NOT_WORD = Pattern.compile("[^a-z0-9]+");

  private McpToolNames() {}

  /** One part of a tool name: lower-case letters, digits and single underscores, a letter first. */
  public static String part(String name) {
    String snake = CAMEL.matcher(name).replaceAll("$1_$2").toLowerCase(Locale.ROOT);
    String word = NOT_WORD.matcher(snake).replaceAll("_");
    word = word.replaceAll("_+", "_").replaceAll("^_|_$", "");
    if (word.isEmpty() || !Character.isLetter(word.charAt(0))) word = "t_" + word;
    return word.replaceAll("_$", "");
  }

  /** {@code mcp.<server>.} — what every tool of this server's names starts with. */
  public static String prefix(String server) {
    return PREFIX + part(server) + ".";
  }

  /** The server part of an MCP tool's name, or empty for a tool of Steward's own. */
  public static Optional<String> serverPart(String toolName) {
    if (!toolName.startsWith(PREFIX)) return Optional.empty();
    int end = toolName.indexOf('.', PREFIX.length());
    return end < 0 ? Optional.empty() : Optional.of(toolName.substring(PREFIX.length(), end));
  }
}
