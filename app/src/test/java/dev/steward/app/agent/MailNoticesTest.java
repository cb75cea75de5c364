package dev.steward.app.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** New-mail notifications: only for mail that is new since the first look, only when asked for. */
class MailNoticesTest {

  final AtomicLong count = new AtomicLong(3);
  final AtomicBoolean wanted = new AtomicBoolean(true);
  final List<String> shown = new ArrayList<>();

  final MailNotices notices = new MailNotices(
      new MailNotices.Service() {
        @Override
        public JsonNode status() {
          return Json.object().put("mails", count.get());
        }

        @Override
        public JsonNode newest(int limit) {
          ObjectNode n = Json.object();
          n.putArray("mails")
              .addObject()
              .put("from", "School <office@school.example>")
              .put("subject", "Trip\non Friday");
          return n;
        }

        @Override
        public void notify(String title, String body) {
          shown.add(title + " | " + body);
        }
      },
      wanted::get);

  @Test
  void only_new_mail_is_news_and_only_when_asked_for() {
    assertEquals(0, notices.look(), "the first look learns the count");
    assertEquals(0, notices.look());
    count.set(4);
    assertEquals(1, notices.look());
    assertEquals(
        List.of("New mail for Steward | From School <office@school.example>: Trip on Friday"),
        shown);
    count.set(6);
    assertEquals(2, notices.look());
    assertEquals(
        "2 new mails for Steward | From School <office@school.example>: Trip on Friday (and 1 more)",
        shown.get(1));
    wanted.set(false);
    count.set(7);
    assertEquals(0, notices.look());
    assertEquals(2, shown.size(), "off: nothing shown");
  }
}
