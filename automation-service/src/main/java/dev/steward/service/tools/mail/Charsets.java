package dev.steward.service.tools.mail;

import jakarta.mail.internet.MimeUtility;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Text in the charset a mail part claims, or the likeliest one when the claim is missing, unknown
 * or false: UTF-8 when the bytes are valid UTF-8, else Windows-1252 (the superset of Latin-1 that
 * mail which says "iso-8859-1" is usually written in). Never fails.
 */
final class Charsets {

  private static final Charset WINDOWS_1252 = Charset.forName("windows-1252");

  private Charsets() {}

  static String decode(byte[] bytes, @Nullable String label) {
    Charset declared = lookup(label);
    boolean ascii = declared != null && declared.equals(StandardCharsets.US_ASCII);
    // "us-ascii" on 8-bit bytes, and no label at all, are guesses by the sender's program.
    if (declared != null && !(ascii && hasHighBytes(bytes))) {
      return new String(
          bytes, declared.equals(StandardCharsets.ISO_8859_1) ? WINDOWS_1252 : declared);
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      return new String(bytes, WINDOWS_1252);
    }
  }

  static @Nullable Charset lookup(@Nullable String label) {
    if (label == null || label.isBlank()) return null;
    String name = MimeUtility.javaCharset(label.strip().replace("\"", "").toLowerCase(Locale.ROOT));
    try {
      return Charset.isSupported(name) ? Charset.forName(name) : null;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static boolean hasHighBytes(byte[] bytes) {
    for (byte b : bytes) if (b < 0) return true;
    return false;
  }
}
