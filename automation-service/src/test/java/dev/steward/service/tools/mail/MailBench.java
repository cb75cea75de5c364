package dev.steward.service.tools.mail;

import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.tool.ToolResult;
import dev.steward.service.TestService;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code ./steward bench mail}: the ingestion rate of 500 mails from GreenMail over IMAP (fetch,
 * parse, files and rows: the pack's ingester as it runs), and {@code mail.search} over 10,000 kept
 * mails — in the store alone and through the real service (gate, audit, WebSocket). The 10,000 are
 * put in the store through the same ingest step as mail from the server, without IMAP.
 */
public final class MailBench {

  private static final int INGEST = 500;
  private static final int MAILS = 10_000;
  private static final int WARM = 200;
  private static final int ROUNDS = 400;
  private static final List<String> WORDS = List.of(
      "lighthouse",
      "invoice",
      "dentist",
      "concert",
      "harbour",
      "parcel",
      "meeting",
      "school",
      "garden",
      "insurance",
      "holiday",
      "plumber",
      "recital",
      "library",
      "football",
      "bakery",
      "tax",
      "museum",
      "train",
      "birthday");
  private static final List<String> QUERIES =
      List.of("lighthouse", "invoice report", "Dentist", "report 4242", "museum about");

  private MailBench() {}

  public static void main(String[] args) throws Exception {
    Path tmp = Files.createTempDirectory("steward-mail-bench-");
    ingestion(tmp.resolve("ingest"));
    try (TestService t = TestService.start();
        GreenMailServer server = new GreenMailServer()) {
      Path folder = t.home.data().resolve("mail");
      try (MailStore store = MailStore.open(folder)) {
        Instant now = Instant.now();
        long i0 = System.nanoTime();
        for (int i = 0; i < MAILS; i++) {
          Ingester.ingest(
              store, 1, i + 1, MailSamples.numbered(i, WORDS.get(i % WORDS.size())), now);
        }
        double seconds = (System.nanoTime() - i0) / 1e9;
        System.out.printf(
            Locale.ROOT,
            "mail ingestion without IMAP (parse, files, rows) of %d mails: %.1f s, %.0f mails/s%n",
            MAILS,
            seconds,
            MAILS / seconds);
        long[] direct = new long[ROUNDS];
        for (int i = 0; i < WARM + ROUNDS; i++) {
          List<String> words = Arrays.asList(QUERIES.get(i % QUERIES.size()).split(" "));
          long t0 = System.nanoTime();
          store.search(words, null, 10);
          if (i >= WARM) direct[i - WARM] = System.nanoTime() - t0;
        }
        long[] none = new long[ROUNDS];
        for (int i = 0; i < WARM + ROUNDS; i++) {
          long t0 = System.nanoTime();
          store.search(List.of("zeppelin"), null, 10);
          if (i >= WARM) none[i - WARM] = System.nanoTime() - t0;
        }
        System.out.printf(
            Locale.ROOT,
            "mail.search in the store over %d mails: p50 %.2f ms, p90 %.2f ms | no match (every row read): p50 %.2f ms, p90 %.2f ms%n",
            store.count(),
            ms(direct, 50),
            ms(direct, 90),
            ms(none, 50),
            ms(none, 90));
      }
      StewardClient ui = t.client(Role.UI);
      StewardClient agent = t.client(Role.AGENT);
      PolicyDocument doc = ui.call(Methods.POLICY_GET, Map.of(), PolicyDocument.class)
          .withMail(new PolicyDocument.Mail(
              GreenMailServer.ADDRESS,
              new PolicyDocument.Mail.Server("127.0.0.1", server.imapPort(), false),
              new PolicyDocument.Mail.Server("127.0.0.1", server.smtpPort(), false),
              false));
      ui.call(Methods.POLICY_UPDATE, doc, PolicyDocument.class);
      ui.await(ui.call(
          Methods.SECRETS_SET,
          Map.of("section", "mail", "key", "password", "value", GreenMailServer.PASSWORD)));
      long[] service = new long[ROUNDS];
      for (int i = 0; i < WARM + ROUNDS; i++) {
        String q = QUERIES.get(i % QUERIES.size());
        long t0 = System.nanoTime();
        ToolResult r = TestService.exec(agent, "mail.search", TestService.args("query", q));
        if (i >= WARM) service[i - WARM] = System.nanoTime() - t0;
        if (!r.ok()) throw new IllegalStateException(String.valueOf(r.error()));
      }
      System.out.printf(
          Locale.ROOT,
          "mail.search through the service (tool.execute, gate and audit) over %d mails: p50 %.2f ms, p90 %.2f ms (target p50 ≤ 20 ms)%n",
          MAILS,
          ms(service, 50),
          ms(service, 90));
    }
  }

  /** 500 mails in GreenMail's INBOX, read by the pack's ingester from the first check to the last. */
  private static void ingestion(Path folder) throws Exception {
    try (GreenMailServer server = new GreenMailServer();
        MailStore store = MailStore.open(folder)) {
      for (int i = 0; i < INGEST; i++) {
        server.deliver(MailSamples.numbered(i, WORDS.get(i % WORDS.size())));
      }
      MailConfig config = new MailConfig(
          GreenMailServer.ADDRESS,
          new PolicyDocument.Mail.Server("127.0.0.1", server.imapPort(), false),
          new PolicyDocument.Mail.Server("127.0.0.1", server.smtpPort(), false),
          GreenMailServer.USER,
          GreenMailServer.PASSWORD);
      Ingester ingester = new Ingester(
          () -> new MailConfig.Configured(config, null),
          () -> store,
          Duration.ofSeconds(60),
          Clock.systemUTC());
      long t0 = System.nanoTime();
      ingester.start();
      while (store.count() < INGEST) Thread.sleep(5);
      long elapsed = System.nanoTime() - t0;
      ingester.close();
      System.out.printf(
          Locale.ROOT,
          "mail ingestion from GreenMail over IMAP: %d mails in %.2f s, %.0f mails/s (connect, fetch, parse, files, rows)%n",
          INGEST,
          elapsed / 1e9,
          INGEST / (elapsed / 1e9));
    }
  }

  private static double ms(long[] nanos, int percentile) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    int i = Math.min(sorted.length - 1, (int) Math.ceil(percentile / 100.0 * sorted.length) - 1);
    return sorted[Math.max(0, i)] / 1e6;
  }
}
