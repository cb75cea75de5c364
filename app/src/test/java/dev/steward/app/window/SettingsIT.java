package dev.steward.app.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.app.FakeOllama;
import dev.steward.app.agent.CallState;
import java.nio.file.Files;
import java.nio.file.Path;
import javafx.scene.control.Label;
import javafx.scene.control.MenuButton;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The settings screen on the real stage, saving through the real service's policy.update. */
class SettingsIT {

  private WindowHarness window;

  @AfterEach
  void close() throws Exception {
    if (window != null) window.close();
  }

  private WindowHarness open() throws Exception {
    window = WindowHarness.start(WindowHarness.settings("http://127.0.0.1:9"));
    return window;
  }

  private static String label(WindowHarness w, String id) {
    return w.robot.lookup(id).queryAs(Label.class).getText();
  }

  @Test
  void aFolderThatDoesNotExistAndAMalformedHostAreRefusedAndNotSaved() throws Exception {
    WindowHarness w = open();
    Path policy = w.home.resolve("config/policy.json");
    String before = Files.readString(policy);
    w.robot.clickOn("Settings");
    w.waitFor(() -> w.robot.lookup("#settings-new-folder").tryQuery().isPresent()
        && !w.app.settings().folders().folders().isEmpty());
    w.robot.clickOn("#settings-new-folder").write("~/no-such-folder");
    w.robot.clickOn("#settings-add-folder");
    w.waitFor(() -> label(w, "#settings-folder-error").contains("does not exist"));
    // The hosts section is below the fold of the settings page: fill it and press its button
    // directly.
    w.robot.interact(() -> {
      w.app.settings().hosts().newHostProperty().set("https://evil.example/steal");
      w.robot.lookup("#settings-add-host").queryButton().fire();
    });
    w.waitFor(() -> label(w, "#settings-host-error").contains("not a host name"));
    assertEquals(before, Files.readString(policy), "nothing was saved");

    Files.createDirectories(w.userHome.resolve("Notes"));
    w.robot.interact(() -> w.app.settings().folders().newFolderProperty().set("~/Notes"));
    w.robot.clickOn("#settings-add-folder");
    w.waitFor(() -> Files.readString(policy).contains("~/Notes"));
    w.waitFor(() -> label(w, "#settings-folder-error").isEmpty());
    w.screenshot("settings");

    // Keeping the browser's cookies is one tick, saved in policy.json; unticking saves it off.
    w.robot.interact(() -> w.robot
        .lookup("#settings-keep-profile")
        .queryAs(javafx.scene.control.CheckBox.class)
        .fire());
    w.waitFor(() -> dev.steward.protocol.json.Json.parse(Files.readString(policy))
        .at("/browser/keep_profile")
        .asBoolean());
    w.robot.interact(() -> w.robot
        .lookup("#settings-keep-profile")
        .queryAs(javafx.scene.control.CheckBox.class)
        .fire());
    w.waitFor(() -> !dev.steward.protocol.json.Json.parse(Files.readString(policy))
        .at("/browser/keep_profile")
        .asBoolean(true));
  }

  @Test
  void aSectionAPackDeclaresIsBuiltAsTheServiceDescribesItAndSavedUnderItsKey() throws Exception {
    WindowHarness w = open();
    Path policy = w.home.resolve("config/policy.json");
    w.robot.clickOn("Settings");
    w.waitFor(() -> w.robot.lookup("#settings-code-enabled").tryQuery().isPresent());
    javafx.scene.control.TextField folder =
        w.robot.lookup("#settings-code-workspace").queryAs(javafx.scene.control.TextField.class);
    w.waitFor(() -> folder.getText().equals("~/Steward"));
    w.robot.interact(() -> {
      folder.setText("  ");
      w.robot.lookup("#settings-code-save").queryButton().fire();
    });
    w.waitFor(() -> label(w, "#settings-code-error").contains("folder"));
    assertFalse(Files.readString(policy).contains("\"enabled\" : true"), "nothing saved");
    w.robot.interact(() -> {
      w.robot
          .lookup("#settings-code-enabled")
          .queryAs(javafx.scene.control.CheckBox.class)
          .fire();
      folder.setText("~/Steward/code");
      w.robot.lookup("#settings-code-save").queryButton().fire();
    });
    w.waitFor(() -> {
      var code = dev.steward.protocol.json.Json.parse(Files.readString(policy)).path("code");
      return code.path("enabled").asBoolean()
          && code.path("workspace").asText().equals("~/Steward/code");
    });
    w.waitFor(() -> label(w, "#settings-code-status").equals("Saved")
        && label(w, "#settings-code-error").isEmpty());
    javafx.scene.control.TextField memory =
        w.robot.lookup("#settings-code-memory-mb").queryAs(javafx.scene.control.TextField.class);
    assertEquals("1024", memory.getPromptText(), "a run's memory, as it is unless set");
    w.robot.interact(() -> {
      memory.setText("lots");
      w.robot.lookup("#settings-code-save").queryButton().fire();
    });
    w.waitFor(() -> label(w, "#settings-code-error").contains("whole number from 256"));
    w.robot.interact(() -> {
      memory.setText("2048");
      w.robot.lookup("#settings-code-save").queryButton().fire();
    });
    w.waitFor(() -> dev.steward.protocol.json.Json.parse(Files.readString(policy))
            .at("/code/memory_mb")
            .asInt()
        == 2048);

    // Web search's Test asks the service's pack, which says what is missing.
    w.robot.interact(() -> w.robot.lookup("#settings-search-test").queryButton().fire());
    w.waitFor(() -> label(w, "#settings-search-error").contains("SearXNG"));

    // A sign-in for a web address: refused with the service's reason, then kept by name only.
    dev.steward.app.settings.FetchHeadersSettings headers = w.app.settings().fetchHeaders();
    w.robot.interact(() -> {
      headers.originProperty().set("https://api.example.org/v1");
      headers.valueProperty().set("Bearer tok-123");
      w.robot.lookup("#settings-fetch-header-add").queryButton().fire();
    });
    w.waitFor(() -> label(w, "#settings-fetch-header-error").contains("whole address"));
    w.robot.interact(() -> {
      headers.originProperty().set("https://API.example.org/");
      w.robot.lookup("#settings-fetch-header-add").queryButton().fire();
    });
    w.waitFor(() -> headers.entries().size() == 1);
    assertEquals(
        "https://api.example.org — Authorization", headers.entries().get(0).label());
    assertEquals("", headers.valueProperty().get(), "the typed value is not kept in the window");
    assertTrue(Files.readString(w.home.resolve("config/secrets.json")).contains("tok-123"));
    w.robot.interact(() -> headers.remove(headers.entries().get(0)));
    w.waitFor(() -> headers.entries().isEmpty());
    assertFalse(Files.readString(w.home.resolve("config/secrets.json")).contains("tok-123"));
  }

  @Test
  void theChatHeadersPickerSwitchesTheModelAndAsksFirstForOneThatCannotCallTools()
      throws Exception {
    try (FakeOllama ollama = new FakeOllama()) {
      com.fasterxml.jackson.databind.node.ObjectNode settings =
          WindowHarness.settings("http://127.0.0.1:9");
      ollama.configure(settings);
      window = WindowHarness.start(settings);
      WindowHarness w = window;
      w.waitFor(() -> FakeOllama.MODEL.equals(w.app.chat().modelNameProperty().get()));
      MenuButton picker = w.robot.lookup("#model-picker").queryAs(MenuButton.class);
      assertEquals(FakeOllama.MODEL, picker.getText());

      // A model that cannot call tools: a word first; Cancel keeps the one in use.
      w.robot.clickOn(picker);
      w.waitFor(() -> w.robot
              .lookup(FakeOllama.TALK_ONLY_MODEL + "  ·  talk only")
              .tryQuery()
              .isPresent()
          && w.robot.lookup(FakeOllama.MODEL + "  ·  calls tools").tryQuery().isPresent());
      w.robot.clickOn(FakeOllama.TALK_ONLY_MODEL + "  ·  talk only");
      w.waitFor(() -> w.robot.lookup("Use it anyway").tryQuery().isPresent());
      w.robot.clickOn("Cancel");
      w.robot.sleep(300);
      assertEquals(FakeOllama.MODEL, w.app.chat().modelNameProperty().get());
      assertFalse(Files.readString(w.home.resolve("config/settings.json"))
          .contains(FakeOllama.TALK_ONLY_MODEL));

      // Used anyway: saved, and the next message goes to it, without a restart.
      w.robot.clickOn(picker);
      w.waitFor(() -> w.robot
          .lookup(FakeOllama.TALK_ONLY_MODEL + "  ·  talk only")
          .tryQuery()
          .isPresent());
      w.robot.clickOn(FakeOllama.TALK_ONLY_MODEL + "  ·  talk only");
      w.waitFor(() -> w.robot.lookup("Use it anyway").tryQuery().isPresent());
      w.robot.clickOn("Use it anyway");
      w.waitFor(() -> FakeOllama.TALK_ONLY_MODEL.equals(picker.getText()));
      assertTrue(Files.readString(w.home.resolve("config/settings.json"))
          .contains("\"" + FakeOllama.TALK_ONLY_MODEL + "\""));
      ollama.enqueue(FakeOllama.Reply.text("Hello."));
      w.type("hello");
      w.waitFor(() -> !ollama.chatRequests().isEmpty());
      assertEquals(
          FakeOllama.TALK_ONLY_MODEL,
          ollama
              .chatRequests()
              .get(ollama.chatRequests().size() - 1)
              .get("model")
              .asText());
      w.waitForTurnEnd();

      // Back to one that calls tools: no question.
      w.robot.clickOn(picker);
      w.waitFor(
          () -> w.robot.lookup(FakeOllama.MODEL + "  ·  calls tools").tryQuery().isPresent());
      w.robot.clickOn(FakeOllama.MODEL + "  ·  calls tools");
      w.waitFor(() -> FakeOllama.MODEL.equals(picker.getText()));
      assertEquals(
          1,
          w.robot.listTargetWindows().stream()
              .filter(javafx.stage.Window::isShowing)
              .count());
    }
  }

  @Test
  void revokingAGrantMakesTheNextMatchingCallAskAgain() throws Exception {
    WindowHarness w = open();
    // A grant covers a file's own folder, never the whole workspace: the files are in one of its
    // folders.
    Files.createDirectories(w.workspace.resolve("notes"));
    for (String n : new String[] {"a", "b", "c"})
      Files.writeString(w.workspace.resolve("notes/" + n + ".txt"), "old\n");
    w.type("/call files.write_text {\"path\":\"~/Steward/notes/a.txt\",\"content\":\"new\\n\"}");
    w.waitForDialog();
    w.waitFor(() -> w.robot
        .lookup("#always")
        .match(org.testfx.util.NodeQueryUtils.isVisible())
        .tryQuery()
        .isPresent());
    w.click("#always");
    w.waitFor(() -> w.cards().size() == 1 && w.cards().get(0).state() == CallState.DONE);
    w.waitForTurnEnd();

    w.type("/call files.write_text {\"path\":\"~/Steward/notes/b.txt\",\"content\":\"new\\n\"}");
    w.waitFor(() -> w.cards().size() == 2 && w.cards().get(1).state().finished());
    w.waitForTurnEnd();
    assertEquals(CallState.DONE, w.cards().get(1).state(), "the grant let it run without asking");

    w.robot.clickOn("Settings");
    w.waitFor(() -> w.app.settings().grants().grants().size() == 1);
    // The grants are below the fold of the settings page: press the row's button directly.
    w.robot.interact(() -> w
        .robot
        .lookup("#settings-grants")
        .lookup(".button")
        .queryAllAs(javafx.scene.control.Button.class)
        .stream()
        .filter(b -> "Revoke".equals(b.getText()) && b.isVisible())
        .findFirst()
        .orElseThrow()
        .fire());
    w.waitFor(() -> w.app.settings().grants().grants().isEmpty());
    assertFalse(
        Files.readString(w.home.resolve("config/policy.json")).contains("files.write_text\""),
        "the grant is gone from policy.json");

    w.robot.clickOn("Chat");
    w.type("/call files.write_text {\"path\":\"~/Steward/notes/c.txt\",\"content\":\"new\\n\"}");
    w.waitForDialog();
    assertEquals(CallState.WAITING, w.cards().get(2).state());
    w.click("#deny");
    w.waitForTurnEnd();
    assertEquals("old\n", Files.readString(w.workspace.resolve("notes/c.txt")));
    assertTrue(Files.readString(w.workspace.resolve("notes/b.txt")).equals("new\n"));
  }
}
