package dev.steward.service.tools.files;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import com.fasterxml.jackson.databind.node.POJONode;
import dev.steward.service.tools.WireValue;
import dev.steward.service.util.IsoInstant;
import java.io.IOException;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;

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

  /** A listing's entries, written straight to the wire as an array of entry objects. */
  static final class Listed extends JsonSerializable.Base implements WireValue {
    /** Field names, punctuation, a type and a date at their longest, and a 20-digit size. */
    private static final int FIXED_BYTES = 120;

    private final List<TreeListing.Entry> entries;

    Listed(List<TreeListing.Entry> entries) {
      this.entries = entries;
    }

    @Override
    public void serialize(JsonGenerator gen, SerializerProvider serializers) throws IOException {
      gen.writeStartArray(this, entries.size());
      char[] time = new char[IsoInstant.MAX_CHARS];
      for (TreeListing.Entry e : entries) {
        gen.writeStartObject();
        gen.writeStringField("path", e.path());
        gen.writeStringField("name", e.name());
        gen.writeStringField("type", e.type());
        gen.writeNumberField("size", e.size());
        gen.writeFieldName("modified");
        int n = IsoInstant.formatTo(time, e.modifiedSeconds(), e.modifiedNanos());
        if (n > 0) gen.writeString(time, 0, n);
        else gen.writeString(IsoInstant.format(e.modifiedSeconds(), e.modifiedNanos()));
        gen.writeEndObject();
      }
      gen.writeEndArray();
    }

    @Override
    public void serializeWithType(JsonGenerator gen, SerializerProvider serializers, TypeSerializer typeSer) throws IOException {
      serialize(gen, serializers);
    }

    @Override
    public long maxBytes() {
      long n = 2;
      for (TreeListing.Entry e : entries) {
        n += FIXED_BYTES + e.pathBound() * 2; // the name is a part of the path
      }
      return n;
    }

    @Override
    public int count() {
      return entries.size();
    }
  }
}
