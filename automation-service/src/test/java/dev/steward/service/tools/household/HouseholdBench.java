package dev.steward.service.tools.household;

import static dev.steward.service.tools.household.HouseholdFixture.args;
import static dev.steward.service.tools.household.HouseholdFixture.line;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.steward.protocol.json.Json;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code ./steward bench household}: {@code grocery.push_ingredients} of 50 ingredients, all
 * merging, into a list of 500 items — on H2 in a folder and on PostgreSQL on loopback (a
 * throw-away cluster, signed in as a household role under row-level security). The baseline, in
 * the same rounds on the same database, is the least SQL with the same effect: lock the list, read
 * its items, update 50 quantities in one batch, commit.
 */
public final class HouseholdBench {

  private static final int WARM = 150;
  private static final int ROUNDS = 10;
  private static final int PER_ROUND = 40;

  private HouseholdBench() {}

  public static void main(String[] args) throws Exception {
    Path tmp = Files.createTempDirectory("steward-household-bench-");
    try (HouseholdFixture h2 = HouseholdFixture.h2(tmp.resolve("h2"))) {
      report("H2", h2);
    }
    try (ThrowawayPostgres pg = ThrowawayPostgres.start()) {
      pg.createRole("owner", "owner-secret-1");
      pg.createRole("alice", "alice-secret-1");
      pg.execute("postgres", "CREATE DATABASE household OWNER owner");
      HouseholdDb.migrate(pg.jdbcUrl("household"), "owner", "owner-secret-1");
      Path stash = Files.createDirectories(tmp.resolve("pg"));
      try (HouseholdFixture fx = new HouseholdFixture(
          HouseholdDb.postgres(
              pg.jdbcUrl("household"), "alice", "alice-secret-1", Clock.systemUTC()),
          stash)) {
        report("PostgreSQL", fx);
      }
    }
  }

  private static void report(String name, HouseholdFixture h) throws Exception {
    String recipe = h.call(
            "recipe.create",
            args(
                "title",
                "Bench",
                "ingredients",
                Json.mapper().createArrayNode().add(line("rice", "1", "cup", null, null))))
        .path("recipe_id")
        .asText();
    String list = h.call("grocery.create_list", args("name", "Bench"))
        .path("grocery_list_id")
        .asText();
    List<String> ids = new ArrayList<>();
    for (String id : Catalogue.shipped().ids()) ids.add(id);
    List<String> units = List.of("g", "kg", "whole");
    ArrayNode all = Json.mapper().createArrayNode();
    for (int i = 0; i < 500; i++) {
      all.add(line(ids.get(i % ids.size()), "1", units.get(i / ids.size()), null, recipe));
    }
    h.call("grocery.push_ingredients", args("grocery_list_id", list, "ingredients", all));
    ArrayNode fifty = Json.mapper().createArrayNode();
    for (int i = 0; i < 50; i++) fifty.add(line(ids.get(i * 7), "0.25", "g", null, recipe));
    List<String> itemIds = new ArrayList<>();
    for (var item : h.call("grocery.get_list", args("grocery_list_id", list)).path("items")) {
      itemIds.add(item.path("grocery_item_id").asText());
    }
    List<String> targets = itemIds.subList(0, 50);
    var push = args("grocery_list_id", list, "ingredients", fifty);
    for (int i = 0; i < WARM; i++) {
      h.call("grocery.push_ingredients", push);
      baseline(h, list, targets);
      h.check("grocery.push_ingredients", push);
    }
    long[] tool = new long[ROUNDS * PER_ROUND];
    long[] base = new long[ROUNDS * PER_ROUND];
    long[] look = new long[ROUNDS * PER_ROUND];
    int n = 0;
    for (int r = 0; r < ROUNDS; r++) {
      for (int i = 0; i < PER_ROUND; i++, n++) {
        long t0 = System.nanoTime();
        h.call("grocery.push_ingredients", push);
        long t1 = System.nanoTime();
        baseline(h, list, targets);
        long t2 = System.nanoTime();
        h.check("grocery.push_ingredients", push);
        long t3 = System.nanoTime();
        tool[n] = t1 - t0;
        base[n] = t2 - t1;
        look[n] = t3 - t2;
      }
    }
    int items =
        h.call("grocery.get_list", args("grocery_list_id", list)).path("items").size();
    System.out.printf(
        Locale.ROOT,
        "household %-10s push 50 into %d items: p50 %.2f ms, p90 %.2f ms | baseline (lock, read, 50 updates, commit) p50 %.2f ms | ratio %.2f× | the gate's look before a click (the push rolled back) p50 %.2f ms%n",
        name,
        items,
        ms(tool, 50),
        ms(tool, 90),
        ms(base, 50),
        ms(tool, 50) / ms(base, 50),
        ms(look, 50));
  }

  private static void baseline(HouseholdFixture h, String list, List<String> items)
      throws Exception {
    h.db.transaction(tx -> {
      var c = tx.connection();
      try (PreparedStatement lock =
          c.prepareStatement("SELECT id FROM grocery_list WHERE id = ? FOR UPDATE")) {
        lock.setString(1, list);
        lock.executeQuery().close();
      }
      try (PreparedStatement read = c.prepareStatement(
          "SELECT id, quantity FROM grocery_item WHERE list_id = ? AND deleted_at IS NULL ORDER BY position")) {
        read.setString(1, list);
        try (ResultSet rs = read.executeQuery()) {
          while (rs.next()) rs.getBigDecimal(2);
        }
      }
      try (PreparedStatement up =
          c.prepareStatement("UPDATE grocery_item SET quantity = quantity + ? WHERE id = ?")) {
        for (String id : items) {
          up.setBigDecimal(1, new BigDecimal("0.25"));
          up.setString(2, id);
          up.addBatch();
        }
        up.executeBatch();
      }
      return null;
    });
  }

  private static double ms(long[] nanos, int percentile) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    return sorted[Math.min(sorted.length - 1, sorted.length * percentile / 100)] / 1e6;
  }
}
