package dev.steward.service.tools.files;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import com.fasterxml.jackson.databind.node.POJONode;
import dev.steward.protocol.json.SizedOutput;
import dev.steward.service.tools.WireValue;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.attribute.BasicFileAttributes;

/** The wire form of directory entries (SPEC §6): path, name, type, size, modified. */
final class Entries {

  private Entries() {}

  static String type(BasicFileAttributes a) {
    if (a.isSymbolicLink()) return "symlink";
    if (a.isDirectory()) return "directory";
    return "file";
  }

  static long size(BasicFileAttributes a) {
    return a.isDirectory() ? 0 : a.size();
  }

  /** How many entries a listing's {@code entries} holds, whichever form it has. */
  static int count(JsonNode entries) {
    if (entries.isPojo() && ((POJONode) entries).getPojo() instanceof WireValue) {
      return ((WireValue) ((POJONode) entries).getPojo()).count();
    }
    return entries.size();
  }

  /**
   * A listing's entries, already written as the wire's JSON array ({@link EntryJson}), sent as
   * they are: straight from where they were written into a byte stream, once its generator has
   * written what comes before them.
   */
  static final class Listed extends JsonSerializable.Base implements WireValue {
    private final JsonRanges json;
    private final int count;

    Listed(JsonRanges json, int count) {
      this.json = json;
      this.count = count;
    }

    @Override
    public void serialize(JsonGenerator gen, SerializerProvider serializers) throws IOException {
      if (gen.getOutputTarget() instanceof OutputStream out) {
        gen.writeRawValue(""); // the separator before the value, and the generator's state after it
        gen.flush();
        if (out instanceof SizedOutput sized) sized.makeRoom(json.length());
        json.writeTo(out);
      } else {
        gen.writeRawValue(new RawJson(json.toBytes())); // a tree, a string for a log
      }
    }

    @Override
    public void serializeWithType(JsonGenerator gen, SerializerProvider serializers, TypeSerializer typeSer) throws IOException {
      serialize(gen, serializers);
    }

    @Override
    public long maxBytes() {
      return json.length();
    }

    @Override
    public int count() {
      return count;
    }
  }

  /**
   * JSON text already written as UTF-8, for {@link JsonGenerator#writeRawValue(SerializableString)}:
   * a UTF-8 generator copies the bytes; any other (a string for a log, say) gets the text.
   */
  private static final class RawJson implements SerializableString {
    private final byte[] utf8;

    RawJson(byte[] utf8) {
      this.utf8 = utf8;
    }

    @Override
    public String getValue() {
      return new String(utf8, StandardCharsets.UTF_8);
    }

    @Override
    public int charLength() {
      return getValue().length();
    }

    @Override
    public char[] asQuotedChars() {
      return getValue().toCharArray();
    }

    @Override
    public byte[] asUnquotedUTF8() {
      return utf8;
    }

    @Override
    public byte[] asQuotedUTF8() {
      return utf8;
    }

    @Override
    public int appendQuotedUTF8(byte[] buffer, int offset) {
      return appendUnquotedUTF8(buffer, offset);
    }

    @Override
    public int appendQuoted(char[] buffer, int offset) {
      return appendUnquoted(buffer, offset);
    }

    @Override
    public int appendUnquotedUTF8(byte[] buffer, int offset) {
      if (offset + utf8.length > buffer.length) return -1;
      System.arraycopy(utf8, 0, buffer, offset, utf8.length);
      return utf8.length;
    }

    @Override
    public int appendUnquoted(char[] buffer, int offset) {
      String text = getValue();
      if (offset + text.length() > buffer.length) return -1;
      text.getChars(0, text.length(), buffer, offset);
      return text.length();
    }

    @Override
    public int writeQuotedUTF8(OutputStream out) throws IOException {
      return writeUnquotedUTF8(out);
    }

    @Override
    public int writeUnquotedUTF8(OutputStream out) throws IOException {
      out.write(utf8);
      return utf8.length;
    }

    @Override
    public int putQuotedUTF8(ByteBuffer buffer) {
      return putUnquotedUTF8(buffer);
    }

    @Override
    public int putUnquotedUTF8(ByteBuffer buffer) {
      if (buffer.remaining() < utf8.length) return -1;
      buffer.put(utf8);
      return utf8.length;
    }

    @Override
    public String toString() {
      return getValue();
    }
  }
}
