package dev.steward.service.tools.household;

import static dev.steward.service.tools.household.HouseholdFixture.args;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.service.tools.UndoStash;
import dev.steward.service.undo.UndoRecord;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The household contract on the database a household keeps on its own machine (H2). */
class HouseholdH2Test extends HouseholdContract {

  @TempDir
  Path dir;

  @Override
  HouseholdFixture fixture() throws Exception {
    return HouseholdFixture.h2(dir);
  }

  @Test
  void rows_and_undo_records_from_before_the_mark_count_as_the_households_own() throws Exception {
    Path folder = Files.createDirectories(dir.resolve("before-the-mark"));
    String url = "jdbc:h2:file:" + folder.resolve("household").toAbsolutePath();
    Flyway.configure(HouseholdDb.class.getClassLoader())
        .dataSource(url, "household", "")
        .locations("classpath:dev/steward/service/tools/household/db/common")
        .target("1")
        .load()
        .migrate();
    try (Connection c = DriverManager.getConnection(url, "household", "");
        Statement st = c.createStatement()) {
      st.executeUpdate("INSERT INTO recipe (id, title, live_title, ingredients, tags, created_at,"
          + " updated_at) VALUES ('r1', 'Old', 'old', '[{\"ingredient_id\":\"egg\",\"quantity\":"
          + "\"1\",\"unit\":\"whole\",\"prep_state\":null}]', '[]', CURRENT_TIMESTAMP,"
          + " CURRENT_TIMESTAMP)");
    }
    try (HouseholdFixture old =
        new HouseholdFixture(HouseholdDb.local(folder, Clock.systemUTC()), folder)) {
      old.call("recipe.get", args("recipe_id", "r1"));
      assertEquals(List.of(), old.taints, "a row from before the mark is the household's");

      old.call("recipe.update", args("recipe_id", "r1", "notes", "later"));
      UndoRecord kept = Objects.requireNonNull(old.lastUndo);
      JsonNode images = kept.data().deepCopy();
      for (JsonNode change : images) {
        for (String side : List.of("before", "after"))
          ((ObjectNode) change.get(side)).remove(Table.FROM_STRANGERS);
      }
      old.undo(UndoRecord.of(kept.tool(), kept.kind(), images));
      assertEquals(
          "null",
          old.call("recipe.get", args("recipe_id", "r1")).path("notes").toString(),
          "an undo record kept before the mark still puts its row back");
    }
  }

  @Test
  void an_undo_record_is_kept_when_a_stop_lands_once_the_change_is_committed() throws Exception {
    Path file = dir.resolve("undo.json");
    UndoStash channel = new UndoStash() {
      @Override
      public Path folder() {
        return dir;
      }

      @Override
      public void save(UndoRecord record) throws IOException {
        // As the undo area writes: an interrupted thread's file channel closes mid-write.
        try (FileChannel out =
            FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
          out.write(ByteBuffer.wrap(Json.write(record.data()).getBytes(StandardCharsets.UTF_8)));
        }
      }
    };
    Thread.currentThread().interrupt();
    try {
      assertTrue(HouseholdTool.Write.keep(
          channel, UndoRecord.of("recipe.update", "rows", Json.mapper().createArrayNode())));
      assertTrue(Thread.currentThread().isInterrupted(), "the Stop is put back for the runner");
    } finally {
      Thread.interrupted();
    }
    assertEquals("[]", Files.readString(file));
  }
}
