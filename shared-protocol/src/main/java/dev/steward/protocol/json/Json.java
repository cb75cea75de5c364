package dev.steward.protocol.json;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The one configured {@link ObjectMapper} of the protocol: snake_case field names, absent
 * optional fields left out, ISO-8601 timestamps, duplicate keys refused and nesting bounded (a
 * peer must not be able to make the parser recurse without limit).
 */
public final class Json {

  /** Deepest nesting of arrays and objects a message may have. */
  public static final int MAX_NESTING_DEPTH = 64;

  private static final ObjectMapper MAPPER = build(false, true);
  private static final ObjectMapper STRICT = build(true, true);
  /**
   * For what the service sends its clients: the service never repeats a key, and checking for
   * repeats costs a tenth of the time of reading a big result. A mapper of its own: turning the
   * check off on a reader of {@link #MAPPER} leaves the parser checking all the same.
   */
  private static final com.fasterxml.jackson.databind.ObjectReader FROM_SERVICE =
      build(false, false).reader();

  private Json() {}

  /** The lenient mapper for wire messages: unknown fields are ignored so peers can extend. */
  public static ObjectMapper mapper() {
    return MAPPER;
  }

  /** A mapper that refuses unknown fields — for human-edited files where a typo must not pass. */
  public static ObjectMapper strictMapper() {
    return STRICT;
  }

  public static ObjectNode object() {
    return JsonNodeFactory.instance.objectNode();
  }

  public static JsonNode tree(Object value) {
    return MAPPER.valueToTree(value);
  }

  /**
   * Wraps a record so it is serialised straight into the message text, without building a tree
   * first. Only {@link #write} (this mapper) may serialise the result: a plain {@code toString()}
   * would use Jackson's default naming.
   */
  public static JsonNode pojo(Object value) {
    return JsonNodeFactory.instance.pojoNode(value);
  }

  public static <T> T convert(JsonNode node, Class<T> type) {
    try {
      return MAPPER.treeToValue(node, type);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(e.getOriginalMessage(), e);
    }
  }

  public static JsonNode parse(String text) throws IOException {
    return MAPPER.readTree(text);
  }

  /** Parses a frame from the service (a client's side): nesting still bounded, repeats not looked for. */
  public static JsonNode parseFromService(String text) throws IOException {
    return FROM_SERVICE.readTree(text);
  }

  /** {@link #parseFromService(String)} of text read as it arrives; a missing document is an error. */
  public static JsonNode parseFromService(java.io.Reader text) throws IOException {
    JsonNode root = FROM_SERVICE.readTree(text);
    if (root == null || root.isMissingNode())
      throw new java.io.EOFException("no JSON in the message");
    return root;
  }

  /** Indented JSON for people (argument editors, details panes); never for the wire. */
  public static String pretty(JsonNode node) {
    try {
      return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(node);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * {@link #pretty}, with every character that may not stand as itself in the window ({@link
   * dev.steward.protocol.util.ShownText#isHidden}: bidirectional controls, line separators) written
   * as a {@code \\u} escape: read back, it is the same value; shown, nothing in it is hidden or
   * reordered.
   */
  public static String prettyVisible(JsonNode node) {
    try {
      return MAPPER
          .writerWithDefaultPrettyPrinter()
          .with(VisibleEscapes.INSTANCE)
          .writeValueAsString(node)
          .transform(dev.steward.protocol.util.ShownText::escapedBeyondTheFirstPlane);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Escapes for {@link #prettyVisible}: JSON's own, and each hidden character. */
  private static final class VisibleEscapes extends com.fasterxml.jackson.core.io.CharacterEscapes {
    static final VisibleEscapes INSTANCE = new VisibleEscapes();
    private static final int[] ASCII = ascii();

    private static int[] ascii() {
      int[] codes = standardAsciiEscapesForJSON();
      codes[0x7f] = ESCAPE_CUSTOM;
      return codes;
    }

    @Override
    public int[] getEscapeCodesForAscii() {
      return ASCII;
    }

    @Override
    public com.fasterxml.jackson.core.@org.jspecify.annotations.Nullable SerializableString
        getEscapeSequence(int ch) {
      return ch <= 0xFFFF && dev.steward.protocol.util.ShownText.isHidden((char) ch)
          ? new com.fasterxml.jackson.core.io.SerializedString(String.format("\\u%04x", ch))
          : null;
    }
  }

  public static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * {@code value} as UTF-8 JSON in a buffer of its own (a frame's payload as it is sent): the
   * bytes are written once, without the string and the copy that {@link #write} and then encoding
   * would make — a big listing is megabytes.
   */
  public static java.nio.ByteBuffer writeUtf8(Object value) {
    Utf8Out out = new Utf8Out();
    try {
      MAPPER.writeValue(out, value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return java.nio.ByteBuffer.wrap(out.bytes, 0, out.size);
  }

  /** A growing byte buffer (ByteArrayOutputStream without its locks and its copy on the way out). */
  private static final class Utf8Out extends java.io.OutputStream implements SizedOutput {
    /** Jackson hands over its own buffer in pieces of at most 8,000 bytes: a bigger write is a raw value. */
    private static final int BIG_WRITE = 64 * 1024;

    private static final int TAIL_ROOM = 16 * 1024;
    byte[] bytes = new byte[512];
    int size;

    @Override
    public void write(int b) {
      ensure(1);
      bytes[size++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      ensure(len);
      System.arraycopy(b, off, bytes, size, len);
      size += len;
    }

    /** Room for the value and for the message's short tail, at once. */
    @Override
    public void makeRoom(long more) {
      if (bytes.length - size >= more) return;
      grow((long) size + more + TAIL_ROOM);
    }

    private void ensure(int more) {
      if (bytes.length - size >= more) return;
      // A big value written at once (a listing's entries) gets room for the message's short tail
      // too, so that the tail does not double a buffer of megabytes; small messages grow as before.
      grow(Math.max(
          (long) bytes.length * 2, (long) size + more + (more >= BIG_WRITE ? TAIL_ROOM : 0)));
    }

    private void grow(long wanted) {
      if (wanted > Integer.MAX_VALUE - 16)
        throw new OutOfMemoryError("a message of more than 2 GB");
      bytes = java.util.Arrays.copyOf(bytes, (int) wanted);
    }
  }

  private static ObjectMapper build(boolean strict, boolean refuseRepeatedKeys) {
    JsonFactory factory = JsonFactory.builder()
        .streamReadConstraints(
            StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING_DEPTH).build())
        .configure(StreamReadFeature.STRICT_DUPLICATE_DETECTION, refuseRepeatedKeys)
        .build();
    return JsonMapper.builder(factory)
        .addModule(new JavaTimeModule())
        .addModule(InstantCodec.module())
        .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
        .serializationInclusion(JsonInclude.Include.NON_NULL)
        .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
        .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, strict)
        .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
        .configure(JsonParser.Feature.STRICT_DUPLICATE_DETECTION, refuseRepeatedKeys)
        .build();
  }
}
