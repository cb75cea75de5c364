package dev.steward.protocol.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.datatype.jsr310.deser.InstantDeserializer;
import java.io.IOException;
import java.time.Instant;

/**
 * Instants on the wire through {@link IsoInstant}: the text is the one the JDK's formatter gives,
 * and a text {@link IsoInstant#parse} does not take (a number, an offset, lower case) is read by
 * the time module's own reader, so what is accepted is unchanged. The general formatter was a
 * tenth of the MCP bridge's time per call, for the two times each tool result carries.
 */
final class InstantCodec {

  private InstantCodec() {}

  /** Registered after the time module, whose readers and writers it then stands before. */
  static SimpleModule module() {
    return new SimpleModule("steward-instants")
        .addSerializer(Instant.class, new Writer())
        .addDeserializer(Instant.class, new Reader());
  }

  private static final class Writer extends StdSerializer<Instant> {
    Writer() {
      super(Instant.class);
    }

    @Override
    public void serialize(Instant value, JsonGenerator gen, SerializerProvider provider)
        throws IOException {
      char[] out = new char[IsoInstant.MAX_CHARS];
      int n = IsoInstant.formatTo(out, value.getEpochSecond(), value.getNano());
      if (n > 0) gen.writeString(out, 0, n);
      else gen.writeString(value.toString());
    }
  }

  private static final class Reader extends StdScalarDeserializer<Instant> {
    Reader() {
      super(Instant.class);
    }

    @Override
    public Instant deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      if (p.hasToken(JsonToken.VALUE_STRING)) {
        Instant read = IsoInstant.parse(p.getText());
        if (read != null) return read;
      }
      return InstantDeserializer.INSTANT.deserialize(p, ctxt);
    }
  }
}
