package dev.steward.service.tools;

import static dev.steward.service.TestService.args;
import static dev.steward.service.TestService.exec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.protocol.tool.ToolResult;
import dev.steward.service.TestService;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** files.read_text over the service: encodings, caps, binary files and things that are not files. */
class ReadTextIT {

  TestService t;
  StewardClient agent;

  @BeforeEach
  void start() {
    t = TestService.start();
    agent = t.client(Role.AGENT);
  }

  @AfterEach
  void stop() {
    t.close();
  }

  private ToolResult read(Object... kv) {
    return exec(agent, "files.read_text", args(kv));
  }

  @Test
  void ascii_and_multi_byte_utf8_read_back_exactly() throws Exception {
    Files.writeString(t.root.resolve("plain.txt"), "plain ascii\nsecond line\n");
    Files.writeString(t.root.resolve("utf8.txt"), "naïve café — ✓ 𝄞\n");
    ToolResult plain = read("path", "plain.txt");
    assertEquals("plain ascii\nsecond line\n", plain.value().get("content").asText());
    assertEquals(24, plain.value().get("size").asLong());
    assertFalse(plain.value().get("truncated").asBoolean());
    assertEquals(
        "naïve café — ✓ 𝄞\n", read("path", "utf8.txt").value().get("content").asText());
    assertEquals(
        "plain ascii\nsecond line\n",
        read("path", "plain.txt", "encoding", "windows-1252")
            .value()
            .get("content")
            .asText());
  }

  @Test
  void text_that_is_not_utf8_is_refused_with_where_and_what_to_pass_and_read_with_its_encoding()
      throws Exception {
    Files.write(
        t.root.resolve("latin.txt"),
        "caf\u00e9 cr\u00e8me".getBytes(Charset.forName("windows-1252")));
    ToolResult refused = read("path", "latin.txt");
    assertEquals(ToolErrorCodes.VALIDATION_ERROR, refused.error().code());
    assertEquals("/encoding", refused.error().field());
    assertTrue(refused.error().message().contains("at byte 3"), refused.error().message());
    assertEquals(
        "café crème",
        read("path", "latin.txt", "encoding", "windows-1252")
            .value()
            .get("content")
            .asText());
  }

  @Test
  void a_cap_cuts_on_a_whole_character_and_says_so() throws Exception {
    Files.writeString(t.root.resolve("long.txt"), "abcdefghij".repeat(10));
    ToolResult ascii = read("path", "long.txt", "max_bytes", 15);
    assertEquals("abcdefghijabcde", ascii.value().get("content").asText());
    assertTrue(ascii.value().get("truncated").asBoolean());
    assertEquals(100, ascii.value().get("size").asLong());
    Files.writeString(t.root.resolve("wide.txt"), "ab✓✓✓"); // ✓ is three bytes
    ToolResult cut = read("path", "wide.txt", "max_bytes", 4); // the cap falls inside the first ✓
    assertTrue(cut.ok(), String.valueOf(cut.error()));
    assertEquals("ab", cut.value().get("content").asText());
    assertTrue(cut.value().get("truncated").asBoolean());
  }

  @Test
  void a_binary_file_is_refused_naming_the_nul_byte() throws Exception {
    Files.write(t.root.resolve("blob.bin"), new byte[] {'a', 'b', 'c', 0, 'd'});
    ToolResult r = read("path", "blob.bin");
    assertEquals(ToolErrorCodes.EXECUTION_ERROR, r.error().code());
    assertTrue(r.error().message().contains("offset 3"), r.error().message());
  }

  @Test
  void a_pipe_is_refused_at_once_instead_of_waiting_for_a_writer() throws Exception {
    var fifo = t.root.resolve("pipe");
    Process mk = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
    assertEquals(0, mk.waitFor());
    ToolResult r = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> read("path", "pipe"));
    assertEquals(ToolErrorCodes.EXECUTION_ERROR, r.error().code());
    assertTrue(r.error().message().contains("not a regular file"), r.error().message());
  }

  @Test
  void a_folder_and_a_missing_file_get_their_own_errors() throws Exception {
    Files.createDirectories(t.root.resolve("sub"));
    ToolResult folder = read("path", "sub");
    assertEquals(ToolErrorCodes.EXECUTION_ERROR, folder.error().code());
    assertTrue(
        folder.error().message().contains("use files.list_dir"), folder.error().message());
    ToolResult missing = read("path", "nothing-here.txt");
    assertEquals(ToolErrorCodes.NOT_FOUND, missing.error().code());
    assertEquals("/path", missing.error().field());
  }
}
