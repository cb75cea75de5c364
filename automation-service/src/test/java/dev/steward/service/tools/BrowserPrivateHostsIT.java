package dev.steward.service.tools;

import static dev.steward.service.TestService.args;
import static dev.steward.service.TestService.exec;
import static dev.steward.service.TestService.id;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.protocol.tool.ToolResult;
import dev.steward.service.TestService;
import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** With the default policy (no private hosts), loopback, private and link-local targets are refused. */
class BrowserPrivateHostsIT {

  TestService t;
  StewardClient agent;

  @BeforeEach
  void start() {
    t = TestService.start(p -> new PolicyDocument(
        p.paths(),
        p.apps(),
        new PolicyDocument.Hosts(List.of("127.0.0.1", "localhost"), false),
        p.grants(),
        p.overrides(),
        p.confirmUnder()));
    agent = t.client(Role.AGENT);
  }

  @AfterEach
  void stop() {
    t.close();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "http://127.0.0.1/",
        "http://127.1.2.3:8080/x",
        "http://[::1]/",
        "http://10.0.0.1/",
        "http://192.168.1.1/admin",
        "http://172.16.0.1/",
        "http://169.254.169.254/latest/meta-data/",
        "http://localhost/",
        "http://a.localhost/",
        "http://[fd00::1]/",
        "http://0.0.0.0/",
        "http://100.64.0.1/",
        "http://0177.0.0.1/",
        "http://0x7f.1/",
        "http://2130706433/",
        "http://127.0.0.1./"
      })
  void private_addresses_are_refused_even_when_listed(String url) {
    ToolResult r = exec(agent, id(), "browser.open_url", args("url", url), null);
    assertEquals(ToolErrorCodes.SCOPE_DENIED, r.errorCode(), url);
  }

  @Test
  void a_name_that_resolves_to_a_private_address_is_refused_after_dns() throws Exception {
    String name = InetAddress.getLocalHost().getHostName();
    InetAddress[] addresses = InetAddress.getAllByName(name);
    assertTrue(
        java.util.Arrays.stream(addresses)
            .anyMatch(a -> a.isLoopbackAddress() || a.isSiteLocalAddress()),
        "this test needs the machine's own name to resolve to a private address: " + name + " → "
            + java.util.Arrays.toString(addresses));
    // The name is not on the list: nothing is looked up until the user approves; then it is
    // refused.
    assertEquals(
        ToolErrorCodes.TOKEN_MISSING,
        exec(agent, id(), "browser.open_url", args("url", "http://" + name + "/"), null)
            .errorCode());
    assertEquals(List.of(), t.lookups);
    ToolResult r = TestService.execConfirmed(
        t.client(Role.UI), agent, "browser.open_url", args("url", "http://" + name + "/"));
    assertEquals(ToolErrorCodes.SCOPE_DENIED, r.errorCode());
    assertEquals(List.of(name), t.lookups);
    assertTrue(r.error().message().contains("resolves to"), r.error().message());
  }
}
