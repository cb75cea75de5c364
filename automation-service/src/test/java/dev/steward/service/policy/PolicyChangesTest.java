package dev.steward.service.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.tool.Confirmation;
import dev.steward.protocol.tool.Risk;
import dev.steward.service.tools.PackMethod;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PolicyChangesTest {

  private static PolicyDocument doc(
      List<PolicyDocument.PathRoot> paths,
      List<String> hosts,
      List<PolicyDocument.StandingGrant> grants,
      Map<String, PolicyDocument.ToolOverride> overrides) {
    return new PolicyDocument(
        paths,
        List.of(new PolicyDocument.AppEntry("editor", List.of("gedit", "--token=s3cret"))),
        new PolicyDocument.Hosts(hosts, false),
        grants,
        overrides,
        List.of());
  }

  @Test
  void nothing_changed_says_nothing() {
    PolicyDocument d = doc(
        List.of(new PolicyDocument.PathRoot("/home/u/Notes", "read_write")),
        List.of("example.org"),
        List.of(),
        Map.of());
    assertEquals(List.of(), PolicyChanges.between(d, d));
  }

  @Test
  void each_section_says_what_was_added_removed_and_changed() {
    PolicyDocument before = doc(
        List.of(
            new PolicyDocument.PathRoot("/home/u/Notes", "read"),
            new PolicyDocument.PathRoot("/home/u/Old", "read")),
        List.of("example.org"),
        List.of(),
        Map.of("files.delete", new PolicyDocument.ToolOverride(Confirmation.ALWAYS)));
    PolicyDocument after = doc(
        List.of(
            new PolicyDocument.PathRoot("/home/u/Notes", "read_write"),
            new PolicyDocument.PathRoot("/home/u/Docs", "read")),
        List.of("docs.example.org"),
        List.of(new PolicyDocument.StandingGrant(
            "g1",
            "files.write_text",
            List.of("/home/u/Notes"),
            Instant.parse("2026-12-01T00:00:00Z"),
            null)),
        Map.of(
            "files.delete",
            new PolicyDocument.ToolOverride(Confirmation.NEVER, Risk.LOW, null),
            "web.fetch",
            new PolicyDocument.ToolOverride(null, null, true)));
    assertEquals(
        List.of(
            "folder /home/u/Notes: read → read_write",
            "+folder /home/u/Docs (read)",
            "-folder /home/u/Old (read)",
            "+host docs.example.org",
            "-host example.org",
            "+standing grant files.write_text in /home/u/Notes until 2026-12-01T00:00:00Z",
            "override \"files.delete\": risk low, confirmation never, was confirmation always",
            "+override \"web.fetch\": disabled"),
        PolicyChanges.between(before, after).stream()
            .sorted(java.util.Comparator.comparing(PolicyChangesTest::order))
            .toList());
  }

  /** Overrides are a map: their order is not the file's; the rest keeps the sections' order. */
  private static int order(String line) {
    return line.contains("web.fetch") ? 1 : 0;
  }

  @Test
  void what_a_section_holds_is_not_quoted_beyond_names() {
    PolicyDocument before = doc(List.of(), List.of(), List.of(), Map.of());
    PolicyDocument after = new PolicyDocument(
        List.of(),
        List.of(new PolicyDocument.AppEntry("editor", List.of("gedit", "--token=other"))),
        new PolicyDocument.Hosts(List.of(), true),
        List.of(),
        Map.of(),
        List.of());
    List<String> said = PolicyChanges.between(before, after);
    assertEquals(
        List.of("app \"editor\" (its command)", "private network addresses allowed"), said);
    assertEquals("(a name not quoted)", PackMethod.quoted("ghp_abc\"; rm -rf"));
    assertEquals("\"github\"", PackMethod.quoted("github"));
  }
}
