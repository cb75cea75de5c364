package dev.steward.service.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalTest {

  @TempDir Path tmp;

  private static ChainedRow row(long seq, String prev, String summary) {
    return ChainedRow.chain(seq, new AuditEntry("decision", "t", "c" + seq, "files.read_text", null, null, "allowed", null, null, null, null,
        summary, Instant.now(), null), prev);
  }

  @Test
  void a_line_torn_in_the_middle_of_a_character_costs_only_that_line() throws Exception {
    Path file = tmp.resolve("audit.journal");
    ChainedRow one = row(1, ChainedRow.GENESIS, "café…");
    ChainedRow two = row(2, one.rowHash(), "naïve ✓");
    try (Journal j = Journal.create(file, 0, ChainedRow.GENESIS, List.of())) {
      j.append(List.of(one, two));
    }
    byte[] bytes = Files.readAllBytes(file);
    byte[] torn = java.util.Arrays.copyOf(bytes, bytes.length - 8); // inside "✓"'s line
    Files.write(file, torn);
    Files.write(file, new byte[] {(byte) 0xE2}, StandardOpenOption.APPEND); // half of a character
    Journal.Recovery r = Journal.read(file);
    assertTrue(r.tornTail());
    assertEquals(1, r.rows().size());
    assertEquals("café…", r.rows().get(0).entry().summary());
    assertTrue(r.rows().get(0).hashMatches());
  }

  @Test
  void damage_before_the_last_line_is_an_error_not_a_silent_loss() throws Exception {
    Path file = tmp.resolve("audit.journal");
    Files.writeString(file, "{\"head\":true,\"seq\":0,\"row_hash\":\"" + ChainedRow.GENESIS + "\"}\n{garbage\n{\"also\":\"garbage\"}\n",
        StandardCharsets.UTF_8);
    assertThrows(IOException.class, () -> Journal.read(file));
  }
}
