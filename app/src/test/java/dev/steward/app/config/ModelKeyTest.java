package dev.steward.app.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The model key goes to the server it was saved for, and to no other. */
class ModelKeyTest {

  @TempDir
  Path dir;

  @Test
  void aKeyIsGivenOnlyForItsOwnOrigin() throws Exception {
    ModelKey key = new ModelKey(dir.resolve("secrets.json"));
    key.write("sk-1", "https://API.example.com/v1");
    assertEquals(Optional.of("sk-1"), key.readFor("https://api.example.com:443/other"));
    assertEquals(Optional.empty(), key.readFor("http://api.example.com/v1"), "another scheme");
    assertEquals(Optional.empty(), key.readFor("https://api.example.com:8443/v1"), "another port");
    assertEquals(Optional.empty(), key.readFor("https://api.example.com.evil/v1"));
    assertEquals(Optional.empty(), key.readFor("not an address"));
    assertEquals(Optional.of("https://api.example.com:443"), key.savedFor());
    key.remove();
    assertFalse(key.saved());
    assertFalse(Files.readString(dir.resolve("secrets.json")).contains("api_key"));
  }

  @Test
  void aKeySavedBeforeOriginsIsTakenForTheServerOfTheSettings() throws Exception {
    Path secrets = dir.resolve("secrets.json");
    Files.writeString(
        secrets, "{\"model\": {\"api_key\": \"sk-old\"}, \"web_search\": {\"api_key\": \"w\"}}");
    ModelKey key = new ModelKey(secrets);
    assertTrue(key.saved());
    assertEquals(Optional.empty(), key.readFor("http://127.0.0.1:1234/v1"), "for no one yet");
    key.adopt("http://127.0.0.1:1234/v1");
    assertEquals(Optional.of("sk-old"), key.readFor("http://127.0.0.1:1234/v1"));
    key.adopt("http://127.0.0.1:9999/v1");
    assertEquals(Optional.empty(), key.readFor("http://127.0.0.1:9999/v1"), "adopted once only");
    assertTrue(Files.readString(secrets).contains("\"w\""), "the packs' secrets are left alone");
  }
}
