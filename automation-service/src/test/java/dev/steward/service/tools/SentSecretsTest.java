package dev.steward.service.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class SentSecretsTest {

  @Test
  void a_sent_value_is_found_however_an_echo_spells_it_and_nothing_else_is_touched() {
    SentSecrets s = new SentSecrets();
    s.add("Authorization", "Bearer abc/DEF+ghi=");
    String x = "«your Authorization header»";
    assertEquals("Bearer is a scheme: " + x, s.clean("Bearer is a scheme: Bearer abc/DEF+ghi="));
    assertEquals("token " + x, s.clean("token abc/DEF+ghi="));
    assertEquals("json " + x, s.clean("json abc\\/DEF+ghi="));
    assertEquals("url " + x, s.clean("url abc%2fdef%2bghi%3d"));
    assertEquals("unicode " + x, s.clean("unicode abc\\u002fDEF\\u002Bghi\\u003d"));
    assertEquals("html " + x, s.clean("html abc&#47;DEF&#x2b;ghi&#61;"));
    assertEquals("upper " + x, s.clean("upper ABC/DEF+GHI="));
    assertEquals("nothing here", s.clean("nothing here"));

    SentSecrets basic = new SentSecrets();
    String encoded =
        Base64.getEncoder().encodeToString("alice:correct-horse".getBytes(StandardCharsets.UTF_8));
    basic.add("Authorization", "Basic " + encoded);
    String y = "«your Authorization header»";
    assertEquals("sent " + y, basic.clean("sent " + encoded));
    assertEquals(
        "the password " + y + " is wrong", basic.clean("the password correct-horse is wrong"));
    assertEquals("user " + y, basic.clean("user alice:correct-horse"));
    assertEquals(
        "Basic auth, short names like alice stay",
        basic.clean("Basic auth, short names like alice stay"));

    SentSecrets cookie = new SentSecrets();
    cookie.add("Cookie", "sessionid=s3cr3tvalue; theme=dark");
    assertEquals(
        "sessionid stays, «your Cookie header» does not",
        cookie.clean("sessionid stays, s3cr3tvalue does not"));
  }
}
