package dev.steward.service.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.protocol.policy.PolicyDocument;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PathScopeTest {

  @TempDir
  Path tmp;

  Path base;
  Path docs;
  Path own;
  PathScope scope;

  @BeforeEach
  void setUp() throws Exception {
    base = tmp.toRealPath();
    docs = Files.createDirectories(base.resolve("home/Docs"));
    Files.createDirectories(base.resolve("home/Docs-private"));
    Files.createDirectories(base.resolve("home/ro"));
    own = Files.createDirectories(base.resolve("home/Docs/steward-home"));
    scope = PathScope.of(
        List.of(
            new PolicyDocument.PathRoot("~/Docs", "read_write"),
            new PolicyDocument.PathRoot("~/ro", "read")),
        List.of(own),
        base.resolve("home"));
  }

  @Test
  void tilde_and_relative_paths_resolve_into_the_first_root() throws Exception {
    assertEquals(
        docs.resolve("a.txt"), scope.resolve("~/Docs/a.txt", Access.WRITE).real());
    assertEquals(docs.resolve("b/c.txt"), scope.resolve("b/c.txt", Access.WRITE).real());
    assertEquals(docs, scope.resolve(".", Access.READ).real());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "~/Docs-private/x",
        "~/Docs-private",
        "~/Docs/../Docs-private/x",
        "../Docs-private/x",
        "/etc/passwd",
        "~/x"
      })
  void a_sibling_with_the_same_prefix_or_anything_outside_is_denied(String path) {
    assertThrows(ScopeDenied.class, () -> scope.resolve(path, Access.READ));
  }

  @Test
  void a_read_only_root_refuses_writes_but_allows_reads() throws Exception {
    assertEquals(base.resolve("home/ro/x"), scope.resolve("~/ro/x", Access.READ).real());
    ScopeDenied e = assertThrows(ScopeDenied.class, () -> scope.resolve("~/ro/x", Access.WRITE));
    assertTrue(e.getMessage().contains("read-only"), e.getMessage());
  }

  @Test
  void symlinks_are_resolved_before_the_comparison() throws Exception {
    Files.createSymbolicLink(docs.resolve("out"), base.resolve("home/Docs-private"));
    Files.createSymbolicLink(docs.resolve("in"), docs.resolve("sub"));
    assertThrows(ScopeDenied.class, () -> scope.resolve("out/x.txt", Access.READ));
    assertEquals(
        docs.resolve("sub/x.txt"), scope.resolve("in/x.txt", Access.READ).real());
  }

  @Test
  void a_link_loop_is_refused_not_followed_forever() throws Exception {
    Files.createSymbolicLink(docs.resolve("l1"), docs.resolve("l2"));
    Files.createSymbolicLink(docs.resolve("l2"), docs.resolve("l1"));
    ScopeDenied e = assertThrows(ScopeDenied.class, () -> scope.resolve("l1/x", Access.READ));
    assertTrue(e.getMessage().contains("too many symbolic links"), e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        ".ssh/id_rsa",
        "a/.gnupg/x",
        ".SSH/x",
        ".ssh./x",
        ".config/chromium/Default",
        "Library/Keychains/login",
        "steward-home/config/ui.secret"
      })
  void always_denied_places_are_denied_inside_a_root(String path) {
    assertThrows(ScopeDenied.class, () -> scope.resolve(path, Access.READ));
  }

  @ParameterizedTest
  @ValueSource(strings = {"..test", "...", "a..b", ".sshd-notes", "ssh"})
  void names_that_only_look_odd_are_allowed(String name) throws Exception {
    assertEquals(docs.resolve(name), scope.resolve(name, Access.WRITE).real());
  }

  @Test
  void nul_empty_and_overlong_paths_are_refused() {
    assertThrows(ScopeDenied.class, () -> scope.resolve("", Access.READ));
    assertThrows(ScopeDenied.class, () -> scope.resolve("a\0b", Access.READ));
    assertThrows(ScopeDenied.class, () -> scope.resolve("a".repeat(20_000), Access.READ));
  }

  @Test
  void the_deepest_matching_root_decides_access() throws Exception {
    Files.createDirectories(docs.resolve("frozen"));
    PathScope nested = PathScope.of(
        List.of(
            new PolicyDocument.PathRoot("~/Docs", "read_write"),
            new PolicyDocument.PathRoot("~/Docs/frozen", "read")),
        List.of(),
        base.resolve("home"));
    assertThrows(ScopeDenied.class, () -> nested.resolve("frozen/x", Access.WRITE));
    assertEquals(docs.resolve("y"), nested.resolve("y", Access.WRITE).real());
  }

  @Test
  void the_quick_last_name_check_agrees_with_folding_the_name() {
    java.util.Random random = new java.util.Random(9);
    List<String> lasts = new java.util.ArrayList<>(PathScope.lastNames());
    String odd = ". .Aa.Zz sS-_\u00e9\uff53";
    for (int i = 0; i < 200_000; i++) {
      StringBuilder b = new StringBuilder();
      if (random.nextInt(3) > 0) {
        String last = lasts.get(random.nextInt(lasts.size()));
        for (char c : last.toCharArray())
          b.append(random.nextBoolean() ? Character.toUpperCase(c) : c);
      }
      int extra = random.nextInt(4);
      for (int k = 0; k < extra; k++) {
        char c = odd.charAt(random.nextInt(odd.length()));
        if (random.nextBoolean()) b.append(c);
        else b.insert(0, c);
      }
      String name = b.toString();
      assertEquals(
          PathScope.isLastNameFolded(name), PathScope.isLastName(name), () -> "\"" + name + "\"");
    }
    for (String name : List.of(
        ".SSH",
        ".ssh.",
        ".ssh . ",
        "..",
        "...",
        ". ",
        "Keychains",
        "keychain",
        "\uff0e\uff53\uff53\uff48",
        "ssh")) {
      assertEquals(PathScope.isLastNameFolded(name), PathScope.isLastName(name), name);
    }
    assertTrue(PathScope.isLastName(".SSH."));
  }

  /** A walk carries the rule down folder by folder; it must hide exactly what asking afresh hides. */
  @Test
  void the_rule_carried_down_a_walk_hides_what_asking_afresh_hides() {
    String[] names = {
      "a.txt",
      "steward-home",
      ".ssh",
      ".SSH",
      "keyrings",
      "share",
      "chromium",
      "Google",
      "Chrome",
      "user data",
      "id_rsa"
    };
    Path[] walk = {
      docs,
      docs.resolve(".local"),
      docs.resolve(".local/share"),
      docs.resolve(".config"),
      docs.resolve("AppData/Local/Google"),
      docs.resolve("AppData/Local/Google/Chrome"),
      docs.resolve("plain/steward-home-not")
    };
    for (Path folder : walk) {
      PathScope.Children carried = scope.children(docs);
      for (Path step = docs; !step.equals(folder); ) {
        step = step.resolve(folder.getName(step.getNameCount()).toString());
        carried = carried.below(step);
      }
      PathScope.Children afresh = scope.children(folder);
      for (String name : names) {
        assertEquals(afresh.denied(name), carried.denied(name), name + " in " + folder);
      }
    }
    assertTrue(scope.children(docs).denied("steward-home"));
    assertTrue(scope.children(own).denied("anything"));
    assertTrue(scope.children(docs.resolve(".local/share")).denied("keyrings"));
    assertTrue(!scope.children(docs.resolve(".local/share")).denied("other"));
  }

  @Test
  void what_lies_in_downloads_comes_from_strangers_wherever_the_folder_is() throws Exception {
    Path mine = Files.writeString(docs.resolve("mine.txt"), "x");
    assertEquals(false, scope.fromStrangers(mine), "no Downloads folder at all");
    assertTrue(scope.fromStrangers(Files.writeString(base.resolve("home/ro/r.txt"), "x")));
    // Downloads is a link into the writable root: what lies where it points is the web's.
    Path fetched = Files.createDirectories(docs.resolve("fetched"));
    Files.createSymbolicLink(base.resolve("home/Downloads"), fetched);
    Path invoice = Files.writeString(fetched.resolve("invoice.txt"), "x");
    assertTrue(scope.fromStrangers(invoice));
    assertEquals(false, scope.fromStrangers(mine));
    // Made a real folder later: the same scope sees it at once.
    Files.delete(base.resolve("home/Downloads"));
    Path real = Files.createDirectories(base.resolve("home/Downloads"));
    assertEquals(false, scope.fromStrangers(invoice));
    assertTrue(scope.fromStrangers(Files.writeString(real.resolve("a.txt"), "x")));
  }
}
