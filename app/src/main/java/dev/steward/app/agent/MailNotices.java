package dev.steward.app.agent;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * "Show a notification when new mail arrives" (Settings → Mail): the window watches how many mails
 * the mail pack took in and, when there are more and the user asked for it, shows one desktop
 * notification through {@code notify.send} — a call of the window's own, in the audit log like
 * any other. The first look only learns the count: mail that was there before is not news.
 */
public final class MailNotices {

  /** What the window asks of the service. */
  public interface Service {

    /** {@code mail.status}: {@code {mails, ...}}. */
    JsonNode status();

    /** {@code mail.pending_summaries}: the newest mails first. */
    JsonNode newest(int limit);

    /** Runs {@code notify.send} with this title and body. */
    void notify(String title, String body);
  }

  private final Service service;
  private final BooleanSupplier wanted;
  private @Nullable Long known;

  /** @param wanted whether the user asked for notifications (read at each look) */
  public MailNotices(Service service, BooleanSupplier wanted) {
    this.service = service;
    this.wanted = wanted;
  }

  /** One look: answers how many new mails it told the user about. */
  public int look() {
    JsonNode status = service.status();
    if (!status.path("mails").isNumber()) return 0;
    long count = status.path("mails").asLong();
    Long before = known;
    known = count;
    if (before == null || count <= before || !wanted.getAsBoolean()) return 0;
    int fresh = (int) Math.min(Integer.MAX_VALUE, count - before);
    JsonNode newest = service.newest(1).path("mails").path(0);
    String body = newest.isMissingNode()
        ? fresh + " new forwarded " + (fresh == 1 ? "mail" : "mails")
        : "From " + clip(newest.path("from").asText("?"), 80) + ": "
            + clip(newest.path("subject").asText(""), 120)
            + (fresh > 1 ? " (and " + (fresh - 1) + " more)" : "");
    service.notify(fresh == 1 ? "New mail for Steward" : fresh + " new mails for Steward", body);
    return fresh;
  }

  private static String clip(String text, int max) {
    String one = text.replaceAll("\\p{Cntrl}", " ").strip();
    return one.length() <= max ? one : one.substring(0, max - 1) + "…";
  }
}
