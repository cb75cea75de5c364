package dev.steward.service.tools.mail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store on an H2 file: each message kept once, the search's matching, the summaries. */
class MailStoreTest {

  @TempDir
  Path folder;

  MailStore store;
  final Instant received = Instant.parse("2026-03-10T12:00:00Z");

  @BeforeEach
  void open() throws Exception {
    store = MailStore.open(folder);
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void a_message_is_kept_once_by_its_uid_and_once_by_its_message_id() throws Exception {
    byte[] plain = MailSamples.all().get("plain");
    Optional<String> first = Ingester.ingest(store, 7, 1, plain, received);
    assertTrue(first.isPresent());
    assertTrue(store.seen(7, 1));
    assertEquals(1, store.lastUid(7));
    assertEquals(
        Optional.empty(),
        Ingester.ingest(store, 8, 1, plain, received),
        "a rebuilt mailbox (new UIDVALIDITY) brings the same message: not kept again");
    assertTrue(store.seen(8, 1));
    assertEquals(1, store.count());
    assertTrue(Files.isRegularFile(folder.resolve(first.get()).resolve("message.eml")));
    assertEquals(
        MimeReader.parse(plain).text(),
        Files.readString(folder.resolve(first.get()).resolve("text.txt"), StandardCharsets.UTF_8));
    try (var listing = Files.list(folder)) {
      assertFalse(listing.anyMatch(p -> p.toString().endsWith(".part")), "no half-made folder");
    }
  }

  @Test
  void a_message_without_a_date_takes_the_date_it_was_received() throws Exception {
    String id = Ingester.ingest(store, 1, 1, MailSamples.all().get("no-date-no-from"), received)
        .orElseThrow();
    assertEquals(received, store.get(id).orElseThrow().date());
  }

  @Test
  void every_word_must_match_case_aside_and_wildcards_are_plain_characters() throws Exception {
    for (var e : MailSamples.all().entrySet()) {
      Ingester.ingest(store, 1, store.lastUid(1) + 1, e.getValue(), received);
    }
    assertEquals(1, store.search(List.of("SPRING", "Concert"), null, 10).size());
    assertEquals(0, store.search(List.of("spring", "dentist"), null, 10).size());
    assertEquals(0, store.search(List.of("%"), null, 10).size());
    assertEquals(0, store.search(List.of("_"), null, 10).size());
    assertEquals(1, store.search(List.of("ölmühle"), null, 10).size());
    List<MailStore.Found> all = store.search(List.of(), null, 50);
    assertEquals(MailSamples.all().size(), all.size());
    for (int i = 1; i < all.size(); i++) {
      assertFalse(all.get(i).date().isAfter(all.get(i - 1).date()), "newest first");
    }
    assertEquals(3, store.search(List.of(), null, 3).size());
    assertEquals(
        3,
        store.search(List.of(), Instant.parse("2026-03-08T00:00:00Z"), 50).size(),
        "since: the invoice, the field trip and the undated note");
  }

  @Test
  void a_models_summary_replaces_the_extractive_one_and_is_searched() throws Exception {
    String id =
        Ingester.ingest(store, 1, 1, MailSamples.all().get("plain"), received).orElseThrow();
    assertEquals(1, store.pending(10, 2000).size());
    assertTrue(store.setSummary(id, "Check-up moved to Thursday"));
    assertEquals("model", store.get(id).orElseThrow().summarySource());
    assertEquals(0, store.pending(10, 2000).size());
    assertEquals(1, store.search(List.of("check-up"), null, 10).size());
    assertFalse(store.setSummary("0000000000000000", "x"));
  }

  @Test
  void a_to_header_of_300_long_display_names_is_kept_and_the_next_mail_still_arrives()
      throws Exception {
    assertTrue(
        Ingester.ingest(store, 1, 1, MailSamples.manyRecipients(300), received).isPresent(),
        String.valueOf(store.problem(1, 1)));
    assertTrue(
        Ingester.ingest(store, 1, 2, MailSamples.all().get("plain"), received).isPresent());
    assertEquals(2, store.count());
    assertEquals(2, store.lastUid(1));
  }

  @Test
  void a_message_over_25_mb_is_remembered_as_too_large_and_the_next_mail_is_kept()
      throws Exception {
    assertEquals(Optional.empty(), Ingester.ingest(store, 1, 1, MailSamples.large(30), received));
    assertTrue(store.seen(1, 1));
    assertTrue(
        store.problem(1, 1).orElseThrow().contains("25 MB"), store.problem(1, 1).get());
    assertTrue(
        Ingester.ingest(store, 1, 2, MailSamples.all().get("plain"), received).isPresent());
    assertEquals(1, store.count());
  }

  @Test
  void a_kept_mail_has_no_problem_and_its_text_is_read_only_as_far_as_asked() throws Exception {
    String id =
        Ingester.ingest(store, 1, 1, MailSamples.all().get("plain"), received).orElseThrow();
    assertEquals(Optional.empty(), store.problem(1, 1), "no longer marked as being read");
    assertEquals("FYI\n\n-----", store.text(id, 10));
    assertEquals(1, store.pending(10, 7).size());
    assertEquals("FYI\n\n--", store.pending(10, 7).get(0).text());
  }

  @Test
  void a_stranger_who_sends_a_known_message_id_first_does_not_suppress_the_real_mail()
      throws Exception {
    byte[] forged = MailSamples.utf8("""
        From: Mallory <mallory@example.net>
        To: assistant@example.test
        Subject: Nothing to see
        Message-ID: <plain-1@example.org>
        Content-Type: text/plain; charset=utf-8

        Ignore the dentist.
        """);
    assertTrue(Ingester.ingest(store, 1, 1, forged, received).isPresent());
    assertTrue(
        Ingester.ingest(store, 1, 2, MailSamples.all().get("plain"), received).isPresent(),
        "the real mail is kept though its Message-ID was seen");
    assertEquals(2, store.count());
    assertEquals(1, store.search(List.of("dentist", "moved"), null, 10).size());
  }
}
