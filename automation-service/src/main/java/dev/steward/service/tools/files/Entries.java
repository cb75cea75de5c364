package dev.steward.service.tools.files;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import com.fasterxml.jackson.databind.node.POJONode;
import dev.steward.protocol.json.SizedOutput;
import dev.steward.service.tools.WireValue;
import java.io.IOException;
import java.io.OutputStream;
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
        gen.writeRawValue(
            new String(json.toBytes(), StandardCharsets.UTF_8)); // a tree, a string for a log
      }
    }

    @Override
    public void serializeWithType(
        JsonGenerator gen, SerializerProvider serializers, TypeSerializer typeSer)
        throws IOException {
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
}
