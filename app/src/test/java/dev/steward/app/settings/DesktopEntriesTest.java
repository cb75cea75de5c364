package dev.steward.app.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DesktopEntriesTest {

  @TempDir
  Path user;

  @TempDir
  Path system;

  private static void entry(Path dir, String file, String body) throws Exception {
    Files.writeString(
        dir.resolve(file),
        "[Desktop Entry]\nType=Application\n" + body
            + "\n[Desktop Action new]\nExec=ignored --new\n");
  }

  @Test
  void proposesVisibleGuiAppsWithTheFileArgumentAsTarget() throws Exception {
    entry(system, "org.gnome.gedit.desktop", "Name=Text Editor\nExec=gedit %U");
    entry(system, "vlc.desktop", "Name=VLC\nExec=/usr/bin/vlc --started-from-file %U %i");
    entry(system, "htop.desktop", "Name=htop\nTerminal=true\nExec=htop");
    entry(system, "hidden.desktop", "Name=Hidden\nNoDisplay=true\nExec=hidden");
    entry(
        system,
        "quoted.desktop",
        "Name=Quoted\nExec=\"/opt/My App/run\" --title \"a \\\"b\\\"\" %f %F");
    Files.writeString(
        system.resolve("link.desktop"), "[Desktop Entry]\nType=Link\nURL=https://x\n");
    entry(user, "vlc.desktop", "Name=My VLC\nExec=vlc --mine %f");
    List<DesktopEntries.Proposal> found = DesktopEntries.scan(List.of(user, system));
    assertEquals(
        List.of("vlc", "org.gnome.gedit", "quoted"),
        found.stream().map(p -> p.entry().id()).toList());
    assertEquals(
        List.of("vlc", "--mine", "{target}"),
        found.get(0).entry().command(),
        "the user's entry wins");
    assertEquals("My VLC", found.get(0).name());
    assertEquals(List.of("gedit", "{target}"), found.get(1).entry().command());
    assertEquals(
        List.of("/opt/My App/run", "--title", "a \"b\"", "{target}"),
        found.get(2).entry().command());
  }

  @Test
  void malformedExecLinesAreNotProposed() {
    assertNull(DesktopEntries.command("app \"unclosed"));
    assertEquals(List.of("app", "100%"), DesktopEntries.command("app 100%% %c"));
  }
}
