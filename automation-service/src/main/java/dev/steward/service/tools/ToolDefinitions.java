package dev.steward.service.tools;

import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.ToolDefinition;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * Tool definitions are JSON resources beside their tool ({@code write_text.json} next to {@code
 * WriteText}): what ships is exactly what is read, and the build validates every schema in them.
 */
public final class ToolDefinitions {

  private ToolDefinitions() {}

  /** Reads {@code resource} from {@code owner}'s package; unknown keys are an error that names them. */
  public static ToolDefinition load(Class<?> owner, String resource) {
    try (InputStream in = owner.getResourceAsStream(resource)) {
      if (in == null)
        throw new IllegalStateException(
            "no tool definition " + resource + " beside " + owner.getName());
      return Json.strictMapper().readValue(in, ToolDefinition.class);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "the tool definition " + resource + " beside " + owner.getName() + " cannot be read", e);
    }
  }
}
