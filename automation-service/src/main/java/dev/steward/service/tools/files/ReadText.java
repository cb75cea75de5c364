package dev.steward.service.tools.files;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.IsoInstant;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.protocol.util.Counted;
import dev.steward.service.scope.Access;
import dev.steward.service.scope.ResolvedPath;
import dev.steward.service.scope.SafeFs;
import dev.steward.service.tools.FileErrors;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolDefinitions;
import dev.steward.service.tools.ToolFailure;
import dev.steward.service.util.ByteSearch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;

/** {@code files.read_text}: a text file's content, bounded, optionally a range of lines. */
public final class ReadText extends SinglePathTool {

  static final int DEFAULT_MAX_BYTES = 1 << 20;
  static final int MAX_BYTES = 16 << 20;
  /** Charsets in which every ASCII byte is its own character. */
  private static final java.util.Set<Charset> ASCII_SUPERSETS = java.util.Set.of(
      StandardCharsets.UTF_8,
      StandardCharsets.US_ASCII,
      StandardCharsets.ISO_8859_1,
      Charset.forName("windows-1252"));

  private static final ToolDefinition DEFINITION =
      ToolDefinitions.load(ReadText.class, "files.read_text.json");

  public ReadText() {
    super(DEFINITION, Access.READ);
  }

  @Override
  public Optional<String> taintSource(JsonNode args, ToolContext ctx) {
    ResolvedPath p = ctx.path("/path");
    return ctx.scope().fromStrangers(p.real()) ? Optional.of("file " + p.real()) : Optional.empty();
  }

  @Override
  public JsonNode run(JsonNode args, ToolContext ctx) throws ToolFailure {
    ResolvedPath path = ctx.path("/path");
    Charset charset = charset(args.path("encoding").asText("utf-8"));
    int maxBytes = args.path("max_bytes").asInt(DEFAULT_MAX_BYTES);
    int start = args.path("start_line").asInt(1);
    int end = args.has("end_line") ? args.get("end_line").asInt() : Integer.MAX_VALUE;
    if (end < start) {
      throw new ToolFailure(
          ToolErrorCodes.VALIDATION_ERROR, "end_line is before start_line", "/end_line", null);
    }
    BasicFileAttributes attrs;
    byte[] bytes;
    int length;
    boolean truncated;
    try (SafeFs.Dir dir = SafeFs.openParent(path)) {
      attrs = SafeFs.attributes(dir.stream(), dir.name())
          .orElseThrow(() -> new java.nio.file.NoSuchFileException(path.requested()));
      if (attrs.isDirectory()) {
        throw new ToolFailure(
            ToolErrorCodes.EXECUTION_ERROR,
            "\"" + path.requested() + "\" is a folder; use files.list_dir",
            "/path",
            null);
      }
      if (!attrs.isRegularFile()) {
        // Opening a pipe blocks until someone writes to it, and a device may never end.
        throw new ToolFailure(
            ToolErrorCodes.EXECUTION_ERROR,
            "\"" + path.requested() + "\" is not a regular file (a pipe, socket or device)",
            "/path",
            null);
      }
      // Lines past the byte cap are only reachable if the whole file may be read.
      long cap = start > 1 || end != Integer.MAX_VALUE
          ? Math.max(maxBytes, Math.min(attrs.size(), MAX_BYTES))
          : maxBytes;
      try (SeekableByteChannel ch = SafeFs.openRead(dir)) {
        // One byte past the cap (or the size) tells a longer file from one that fits.
        bytes = new byte[(int) Math.min(cap + 1, Math.max(attrs.size() + 1, 1))];
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        while (buf.hasRemaining() && ch.read(buf) > 0) {
          ToolContext.checkCancelled();
        }
        truncated = buf.position() > cap;
        length = (int) Math.min(buf.position(), cap);
      }
    } catch (IOException e) {
      throw FileErrors.of(e, path.requested());
    }
    int nul = charset.name().startsWith("UTF-16") || charset.name().startsWith("UTF-32")
        ? -1
        : ByteSearch.indexOf(bytes, 0, length, (byte) 0);
    if (nul >= 0) {
      throw new ToolFailure(
          ToolErrorCodes.EXECUTION_ERROR,
          "\"" + path.requested() + "\" is a binary file (a NUL byte at offset " + nul
              + "); files.read_text reads text only",
          "/path",
          null);
    }
    String text = decode(bytes, length, charset, truncated, path.requested());
    String content = lines(text, start, end);
    if (content.length() > maxBytes) {
      content = content.substring(0, maxBytes);
      truncated = true;
    }
    ObjectNode result = Json.object();
    result.put("content", content);
    result.put("size", attrs.size());
    result.put("modified", IsoInstant.format(attrs.lastModifiedTime()));
    result.put("truncated", truncated);
    return result;
  }

  private static Charset charset(String name) throws ToolFailure {
    try {
      return Charset.forName(name);
    } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
      throw new ToolFailure(
          ToolErrorCodes.VALIDATION_ERROR, "unknown encoding \"" + name + "\"", "/encoding", null);
    }
  }

  private static String decode(
      byte[] bytes, int length, Charset charset, boolean truncated, String requested)
      throws ToolFailure {
    if (ASCII_SUPERSETS.contains(charset) && ByteSearch.isAscii(bytes, 0, length)) {
      // Most text is ASCII, which these charsets all read the same way and which cannot be
      // malformed: the bytes become the string's own (Latin-1) storage without a decoder's buffers.
      return new String(bytes, 0, length, StandardCharsets.ISO_8859_1);
    }
    CharsetDecoder decoder = charset
        .newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes, 0, length);
    CharBuffer out = CharBuffer.allocate((int) (length * (double) decoder.maxCharsPerByte()) + 1);
    var result = decoder.decode(in, out, true);
    if (result.isError() && !(truncated && result.isMalformed() && in.remaining() < 4)) {
      throw new ToolFailure(
          ToolErrorCodes.VALIDATION_ERROR,
          "\"" + requested + "\" is not valid " + charset.name() + " (at byte " + in.position()
              + "); pass its encoding, e.g. windows-1252",
          "/encoding",
          null);
    }
    try {
      decoder.flush(out);
    } catch (IllegalStateException e) {
      // decoding stopped early on a character cut by the byte cap; what came before stands
    }
    return out.flip().toString();
  }

  private static String lines(String text, int start, int end) {
    if (start == 1 && end == Integer.MAX_VALUE) return text;
    int line = 1;
    int from = start == 1 ? 0 : -1;
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) == '\n') {
        line++;
        if (line == start) from = i + 1;
        if (line == end + 1) return from < 0 ? "" : text.substring(from, i + 1);
      }
    }
    return from < 0 ? "" : text.substring(from);
  }

  @Override
  public String summarize(JsonNode args, JsonNode value) {
    return "read " + Counted.of(value.path("size").asLong(), "byte", "bytes")
        + (value.path("truncated").asBoolean() ? " (truncated)" : "");
  }
}
