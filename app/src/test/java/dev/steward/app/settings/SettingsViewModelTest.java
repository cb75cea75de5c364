package dev.steward.app.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.app.agent.LocalServers;
import dev.steward.app.agent.ModelCatalog;
import dev.steward.app.agent.ModelServer;
import dev.steward.app.config.AppSettings;
import dev.steward.app.config.ModelKey;
import dev.steward.app.config.SettingsStore;
import dev.steward.protocol.client.ClientException;
import dev.steward.protocol.home.StewardPlaces;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.jsonrpc.RpcError;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.PackSettings;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.service.tools.code.CodePack;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SettingsViewModelTest {

  /** A policy store that refuses what the service would refuse: a missing folder, a bad host. */
  private static final class Service implements PolicySource {
    PolicyDocument doc = PolicyDocument.defaults()
        .withGrants(List.of(new PolicyDocument.StandingGrant(
            "g1", "files.write_text", List.of("/home/u/Notes"), null, null)));
    final List<PolicyDocument> saved = new ArrayList<>();

    @Override
    public PolicyDocument get() {
      return doc;
    }

    @Override
    public PolicyDocument update(PolicyDocument next) {
      for (PolicyDocument.PathRoot r : next.paths()) {
        if (r.root().contains("missing"))
          throw ClientException.rpc(
              RpcError.of(-32602, "policy.json: the folder \"" + r.root() + "\" does not exist"));
      }
      for (String h : next.hosts().allow()) {
        if (h.contains("/") || h.contains(" "))
          throw ClientException.rpc(
              RpcError.of(-32602, "policy.json: \"" + h + "\" in hosts.allow is not a host name"));
      }
      doc = next;
      saved.add(next);
      return next;
    }
  }

  @TempDir
  Path dir;

  private final Service service = new Service();

  /** What the model servers answer: the server each question was about is kept. */
  private final List<ModelServer> asked = new ArrayList<>();

  private final ModelServers servers = new ModelServers() {
    @Override
    public List<ModelCatalog.Offered> models(ModelServer server) {
      asked.add(server);
      return server.kind() == ModelServer.Kind.OLLAMA
          ? List.of(
              new ModelCatalog.Offered("qwen2.5:7b", ModelCatalog.ToolUse.CALLS_TOOLS),
              new ModelCatalog.Offered("llama3.2", ModelCatalog.ToolUse.NO_TOOLS))
          : List.of(new ModelCatalog.Offered("qwen2.5-7b-instruct", ModelCatalog.ToolUse.NOT_SAID));
    }

    @Override
    public List<LocalServers.Found> running() {
      return List.of(new LocalServers.Found(
          ModelServer.Kind.OPENAI_COMPATIBLE, "http://127.0.0.1:1234/v1", "LM Studio (port 1234)"));
    }
  };

  private SettingsViewModel vm() {
    StewardPlaces places = StewardPlaces.under(dir, dir);
    SettingsStore store = new SettingsStore(places, Map.of());
    SettingsViewModel vm = new SettingsViewModel(
        Runnable::run,
        Runnable::run,
        store,
        new ModelKey(places.secretsFile()),
        store.load().settings(),
        servers);
    vm.attach(service);
    return vm;
  }

  @Test
  void showsThePolicy() {
    SettingsViewModel vm = vm();
    assertEquals(3, vm.folders().folders().size());
    assertEquals(List.of("en.wikipedia.org"), vm.hosts().hosts());
    assertEquals("g1", vm.grants().grants().get(0).id());
  }

  @Test
  void aGrantsPathsAreShownOnOneLineWithHiddenCharactersWrittenOut() {
    String line = GrantsSettings.shown(new PolicyDocument.StandingGrant(
        "g2", "files.write_text", List.of("/home/u/gpj\u202e.exe", "/home/u/a\nb"), null, null));
    assertEquals(
        "files.write_text under /home/u/gpj\\u202e.exe, /home/u/a\\u000ab, no end date", line);
  }

  @Test
  void aGrantsEndIsShownInTheUsersZoneAndManner() {
    PolicyDocument.StandingGrant g = new PolicyDocument.StandingGrant(
        "g3",
        "files.write_text",
        List.of("/home/u/notes"),
        java.time.Instant.parse("2026-11-27T12:00:00Z"),
        null);
    String berlin =
        GrantsSettings.shown(g, java.time.ZoneId.of("Europe/Berlin"), java.util.Locale.UK);
    assertTrue(
        berlin.startsWith("files.write_text under /home/u/notes, until 27 Nov 2026"), berlin);
    assertTrue(berlin.endsWith("13:00"), berlin);
    assertFalse(berlin.contains("Z"), berlin);
  }

  @Test
  void aMissingFolderIsRefusedBesideTheFieldAndNothingIsSaved() {
    SettingsViewModel vm = vm();
    vm.folders().newFolderProperty().set("~/missing");
    vm.folders().add();
    assertTrue(
        vm.folders().errorProperty().get().contains("does not exist"),
        vm.folders().errorProperty().get());
    assertTrue(service.saved.isEmpty());
    assertEquals(
        "~/missing", vm.folders().newFolderProperty().get(), "the typed text stays for correcting");
    vm.folders().newFolderProperty().set("~/Notes");
    vm.folders().newFolderWritableProperty().set(true);
    vm.folders().add();
    assertEquals("", vm.folders().errorProperty().get());
    assertTrue(
        vm.folders().folders().contains(new PolicyDocument.PathRoot("~/Notes", "read_write")));
  }

  @Test
  void aMalformedHostIsRefused() {
    SettingsViewModel vm = vm();
    vm.hosts().newHostProperty().set("https://evil.example/x");
    vm.hosts().add();
    assertTrue(vm.hosts().errorProperty().get().contains("not a host name"));
    assertEquals(List.of("en.wikipedia.org"), vm.hosts().hosts());
    vm.hosts().newHostProperty().set("Docs.Example.org");
    vm.hosts().add();
    assertEquals(List.of("en.wikipedia.org", "docs.example.org"), vm.hosts().hosts());
  }

  @Test
  void theHouseholdsSharedDatabaseIsSavedInThePolicyAndItsPasswordsOnlyThroughSecretsSet() {
    SettingsViewModel vm = vm();
    List<String> secrets = new ArrayList<>();
    vm.attach((section, key, value) -> secrets.add(section + "." + key + "=" + value));
    HouseholdSettings h = vm.household();
    assertFalse(h.sharedProperty().get());
    h.sharedProperty().set(true);
    h.save();
    assertTrue(h.errorProperty().get().contains("address"), h.errorProperty().get());
    assertTrue(service.saved.isEmpty());
    h.urlProperty().set("jdbc:postgresql://nas.local/household");
    h.usernameProperty().set("smiths");
    h.passwordProperty().set("pw-1");
    h.save();
    assertEquals(
        "jdbc:postgresql://nas.local/household", service.doc.household().dbUrl());
    assertEquals(List.of("household.username=smiths", "household.password=pw-1"), secrets);
    assertEquals("", h.passwordProperty().get(), "a password is not kept on screen once saved");
    assertFalse(service.doc.toString().contains("pw-1"));
    h.sharedProperty().set(false);
    h.save();
    assertEquals(null, service.doc.household().dbUrl());
  }

  @Test
  void theSearchEngineIsSavedInThePolicyAndItsKeyOnlyThroughSecretsSet() {
    SettingsViewModel vm = vm();
    List<String> secrets = new ArrayList<>();
    vm.attach((section, key, value) -> secrets.add(section + "." + key + "=" + value));
    WebSearchSettings w = vm.webSearch();
    assertEquals(WebSearchSettings.NONE, w.providerProperty().get());
    w.providerProperty().set("searxng");
    w.save();
    assertTrue(w.errorProperty().get().contains("SearXNG"), w.errorProperty().get());
    assertTrue(service.saved.isEmpty());
    w.providerProperty().set("tavily");
    w.apiKeyProperty().set("tvly-1");
    w.save();
    assertEquals("tavily", service.doc.webSearch().provider());
    assertEquals(null, service.doc.webSearch().url(), "the public API");
    assertEquals(List.of("web_search.api_key=tvly-1"), secrets);
    assertEquals("", w.apiKeyProperty().get());
    w.providerProperty().set(WebSearchSettings.NONE);
    w.save();
    assertEquals(null, service.doc.webSearch().provider());
  }

  @Test
  void theCalendarIsSavedInThePolicyItsPasswordOnlyThroughSecretsSetAndATestSaysWhatFailed() {
    SettingsViewModel vm = vm();
    List<String> secrets = new ArrayList<>();
    vm.attach((section, key, value) -> secrets.add(section + "." + key + "=" + value));
    List<String> asked = new ArrayList<>();
    com.fasterxml.jackson.databind.node.ObjectNode answer = dev.steward.protocol.json.Json.object();
    vm.attach((PackCalls) (method, params) -> {
      if (method.equals(Methods.PACKS_SETTINGS))
        return Json.mapper().valueToTree(new PackSettings.Result(List.of()));
      if (method.equals(FetchHeadersSettings.LIST)) return NO_HEADERS;
      asked.add(method + (params.isEmpty() ? "" : " " + params));
      if (!method.equals("calendar.discover")) return answer;
      com.fasterxml.jackson.databind.node.ObjectNode found =
          dev.steward.protocol.json.Json.object();
      found
          .putArray("calendars")
          .addObject()
          .put("url", "https://dav.example.org/alice/assistant/")
          .put("name", "Assistant");
      return found;
    });
    CalendarSettings c = vm.calendar();
    c.urlProperty().set("https://alice@dav.example.org/cal/");
    c.save();
    assertTrue(
        c.errorProperty().get().contains("names no user"), c.errorProperty().get());
    assertTrue(service.saved.isEmpty(), "nothing saved");
    c.urlProperty().set("https://dav.example.org/alice/assistant");
    c.usernameProperty().set("alice");
    c.passwordProperty().set("app-pw-1");
    c.save();
    assertEquals(
        "https://dav.example.org/alice/assistant/", service.doc.calendar().url());
    assertEquals(List.of("calendar.username=alice", "calendar.password=app-pw-1"), secrets);
    assertEquals("", c.passwordProperty().get(), "the password is not kept in the window");

    answer
        .put("ok", false)
        .put("problem", "the calendar server refused the user name or password (HTTP 401)");
    c.test();
    assertEquals(List.of("calendar.check"), asked);
    assertTrue(c.errorProperty().get().contains("HTTP 401"), c.errorProperty().get());
    answer.put("ok", true).put("calendar", "Assistant");
    c.test();
    assertEquals("Connected to “Assistant”", c.statusProperty().get());
    assertEquals("", c.errorProperty().get());

    c.urlProperty().set("https://dav.example.org");
    c.find();
    assertEquals(
        "calendar.discover {\"server\":\"https://dav.example.org\"}", asked.get(asked.size() - 1));
    assertEquals(1, c.found().size());
    c.choose(c.found().get(0));
    assertEquals("https://dav.example.org/alice/assistant/", c.urlProperty().get());
  }

  @Test
  void theMailboxIsSavedInThePolicyItsPasswordOnlyThroughSecretsSetAndATestNamesWhatFailed() {
    SettingsViewModel vm = vm();
    List<String> secrets = new ArrayList<>();
    vm.attach((section, key, value) -> secrets.add(section + "." + key + "=" + value));
    com.fasterxml.jackson.databind.node.ObjectNode answer = dev.steward.protocol.json.Json.object();
    vm.attach((PackCalls) (method, params) -> method.equals(Methods.PACKS_SETTINGS)
        ? Json.mapper().valueToTree(new PackSettings.Result(List.of()))
        : answer);
    MailSettings m = vm.mail();
    m.addressProperty().set("assistant@example.org");
    m.imapHostProperty().set("imap.example.org");
    m.save();
    assertTrue(m.errorProperty().get().contains("SMTP"), m.errorProperty().get());
    assertTrue(service.saved.isEmpty(), "nothing saved");
    m.smtpHostProperty().set("smtp.example.org");
    m.smtpPortProperty().set("x");
    m.save();
    assertTrue(m.errorProperty().get().contains("port"), m.errorProperty().get());
    m.smtpPortProperty().set("587");
    m.smtpTlsProperty().set(false);
    m.usernameProperty().set("assistant");
    m.passwordProperty().set("mail-pw-1");
    m.save();
    PolicyDocument.Mail saved = service.doc.mail();
    assertEquals("assistant@example.org", saved.address());
    assertEquals(new PolicyDocument.Mail.Server("imap.example.org", 993, true), saved.imap());
    assertEquals(new PolicyDocument.Mail.Server("smtp.example.org", 587, false), saved.smtp());
    assertEquals(List.of("mail.username=assistant", "mail.password=mail-pw-1"), secrets);
    answer.put("imap", "ok").put("smtp", "the server refused the user name or password");
    m.test();
    assertEquals(
        "Sending (SMTP): the server refused the user name or password",
        m.errorProperty().get());
    answer.put("smtp", "ok");
    m.test();
    assertTrue(
        m.statusProperty().get().startsWith("Connected"), m.statusProperty().get());
  }

  /** What the window asks the web pack when it connects: no headers configured. */
  private static final com.fasterxml.jackson.databind.JsonNode NO_HEADERS =
      Json.object().set("headers", Json.mapper().createArrayNode());

  @Test
  void headersForAnAddressAreListedByNameAndTheTypedValueGoesOnceThroughThePack() {
    SettingsViewModel vm = vm();
    List<String> asked = new ArrayList<>();
    com.fasterxml.jackson.databind.node.ArrayNode listed = Json.mapper().createArrayNode();
    vm.attach((PackCalls) (method, params) -> {
      if (method.equals(Methods.PACKS_SETTINGS))
        return Json.mapper().valueToTree(new PackSettings.Result(List.of()));
      asked.add(method + " " + params);
      if (method.equals(FetchHeadersSettings.SET)) {
        if (params.path("origin").asText().contains("/v1")) {
          throw new dev.steward.protocol.client.ClientException(
              "headers are set for a whole address", null);
        }
        listed.addObject().put("origin", "https://api.example.org").put("name", "Authorization");
        return Json.object().put("set", true);
      }
      return Json.object().set("headers", listed.deepCopy());
    });
    FetchHeadersSettings h = vm.fetchHeaders();
    assertEquals(List.of(), h.entries());
    h.originProperty().set("https://api.example.org/v1");
    h.valueProperty().set("Bearer tok");
    h.add();
    assertTrue(
        h.errorProperty().get().contains("whole address"), h.errorProperty().get());
    assertEquals("Bearer tok", h.valueProperty().get(), "kept for the user to mend the address");
    h.originProperty().set("https://api.example.org");
    h.add();
    assertEquals("", h.errorProperty().get());
    assertEquals("", h.valueProperty().get(), "the value is not kept in the window");
    assertEquals("https://api.example.org — Authorization", h.entries().get(0).label());
    assertTrue(
        asked.contains(FetchHeadersSettings.SET
            + " {\"origin\":\"https://api.example.org\",\"name\":\"Authorization\","
            + "\"value\":\"Bearer tok\"}"),
        asked.toString());
  }

  /** The service's answer to {@code packs.settings}: the real packs' declarations. */
  private static PackCalls declaring(PackSettings.Section... sections) {
    return (method, params) -> {
      if (method.equals(FetchHeadersSettings.LIST)) return NO_HEADERS;
      assertEquals(Methods.PACKS_SETTINGS, method);
      return Json.mapper().valueToTree(new PackSettings.Result(List.of(sections)));
    };
  }

  @Test
  void theSearchTestSaysWhatTheEngineAnsweredOrWhatFailed() {
    SettingsViewModel vm = vm();
    List<String> asked = new ArrayList<>();
    com.fasterxml.jackson.databind.node.ObjectNode answer = Json.object();
    vm.attach((PackCalls) (method, params) -> {
      if (method.equals(Methods.PACKS_SETTINGS))
        return Json.mapper().valueToTree(new PackSettings.Result(List.of()));
      if (method.equals(FetchHeadersSettings.LIST)) return NO_HEADERS;
      asked.add(method);
      return answer;
    });
    WebSearchSettings s = vm.webSearch();
    answer.put("ok", true).put("provider", "searxng").put("results", 1);
    s.test();
    assertEquals(List.of("web.search_check"), asked);
    assertEquals(
        "Works: your SearXNG answered with 1 result", s.statusProperty().get());
    answer.put("ok", false).put("problem", "tavily refused the API key (HTTP 401)");
    s.test();
    assertEquals("", s.statusProperty().get());
    assertTrue(s.errorProperty().get().contains("HTTP 401"), s.errorProperty().get());
  }

  @Test
  void codeRunsAreOffUntilTurnedOnAndTheirFolderIsSaved() {
    SettingsViewModel vm = vm();
    vm.attach(declaring(new CodePack().settings().orElseThrow()));
    PackSection c = vm.packSection("code").orElseThrow();
    assertEquals("Code runs", c.declaration().title());
    assertFalse(c.toggle("enabled").get());
    assertEquals("~/Steward", c.text("workspace").get(), "the policy's value");
    c.text("workspace").set(" ");
    c.save();
    assertTrue(c.errorProperty().get().contains("folder"), c.errorProperty().get());
    assertTrue(service.saved.isEmpty(), "nothing saved");
    c.toggle("enabled").set(true);
    c.text("workspace").set("~/Steward/code");
    c.save();
    assertEquals(new PolicyDocument.Code(true, false, "~/Steward/code"), service.doc.code());
    assertEquals("Saved", c.statusProperty().get());
    assertEquals("", c.text("memory_mb").get(), "unset: the default is only a prompt");
    c.text("memory_mb").set("100");
    c.save();
    assertTrue(c.errorProperty().get().contains("from 256"), c.errorProperty().get());
    c.text("memory_mb").set("2048");
    c.save();
    assertEquals(2048, service.doc.code().memory());
    assertEquals(PolicyDocument.Code.FILE_MB, service.doc.code().fileSize());
    c.text("memory_mb").set("");
    c.save();
    assertEquals(null, service.doc.code().memoryMb(), "emptied: back to the default");
  }

  @Test
  void aPacksOwnSectionIsKeptUnderPacksAndItsSecretGoesOnlyToSecretsSet() {
    SettingsViewModel vm = vm();
    List<String> secrets = new ArrayList<>();
    vm.attach((section, key, value) -> secrets.add(section + "." + key + "=" + value));
    vm.attach(declaring(new PackSettings.Section(
        "sample",
        "Sample",
        "",
        "packs.sample",
        List.of(
            PackSettings.Field.text("greeting", "Greeting", "", "hello"),
            new PackSettings.Field(
                "mood",
                "Mood",
                PackSettings.Kind.CHOICE,
                "",
                "calm",
                List.of("calm", "cheerful"),
                false),
            PackSettings.Field.secret("token", "Token", "")))));
    PackSection p = vm.packSection("sample").orElseThrow();
    assertEquals("", p.text("greeting").get(), "an unset text: its fallback is only a prompt");
    assertEquals("calm", p.text("mood").get(), "a choice shows the one in effect");
    p.save();
    assertEquals(
        "{\"mood\":\"calm\"}",
        service.doc.packs().get("sample").toString(),
        "a fallback is not written down as if the user chose it");
    p.text("greeting").set("ahoy");
    p.text("mood").set("cheerful");
    p.text("token").set("t-1");
    p.save();
    assertEquals(
        "{\"greeting\":\"ahoy\",\"mood\":\"cheerful\"}",
        service.doc.packs().get("sample").toString());
    assertEquals(List.of("sample.token=t-1"), secrets);
    assertEquals("", p.text("token").get(), "a secret is not kept in the window");
    assertFalse(service.doc.toString().contains("t-1"));
    assertEquals(PolicyDocument.defaults().code(), service.doc.code(), "other sections untouched");
  }

  @Test
  void revokingAGrantRemovesItFromThePolicy() {
    SettingsViewModel vm = vm();
    vm.grants().revoke(vm.grants().grants().get(0));
    assertTrue(service.doc.grants().isEmpty());
    assertTrue(vm.grants().grants().isEmpty());
  }

  @Test
  void theModelPickerIsFilledFromTheServerAndABadUrlIsNotSaved() throws Exception {
    SettingsViewModel vm = vm();
    vm.model().urlProperty().set("localhost:11434");
    assertFalse(vm.model().save());
    assertTrue(
        vm.model().urlErrorProperty().get().startsWith("The server's address starts with http"));
    assertFalse(Files.exists(dir.resolve("config/settings.json")));
    vm.model().urlProperty().set("http://127.0.0.1:11434");
    vm.model().testConnection();
    assertEquals(List.of("qwen2.5:7b", "llama3.2"), vm.model().models());
    assertTrue(vm.model().callsTools("qwen2.5:7b"));
    assertEquals("", vm.model().warningProperty().get());
    vm.model().modelProperty().set("llama3.2");
    assertTrue(
        vm.model().warningProperty().get().contains("does not call tools"),
        "warned before it is saved");
    vm.model().modelProperty().set("qwen2.5:7b");
    assertEquals("", vm.model().warningProperty().get());
    vm.model().modelProperty().set("llama3.2");
    assertTrue(vm.model().save(), "the user may still choose it");
    assertTrue(
        Files.readString(dir.resolve("config/settings.json")).contains("\"model\" : \"llama3.2\""));
  }

  @Test
  void aFoundOpenAiCompatibleServerIsUsedWithItsKeyKeptApartFromTheSettings() throws Exception {
    SettingsViewModel vm = vm();
    ModelSettings m = vm.model();
    assertEquals("http://localhost:11434", m.urlProperty().get());
    m.findServers();
    assertEquals(1, m.found().size());
    m.newKeyProperty().set("  sk-local-123 ");
    m.use(m.found().get(0));
    assertEquals(AppSettings.OPENAI_COMPATIBLE, m.providerProperty().get());
    assertEquals("http://127.0.0.1:1234/v1", m.urlProperty().get());
    ModelServer last = asked.get(asked.size() - 1);
    assertEquals(ModelServer.Kind.OPENAI_COMPATIBLE, last.kind());
    assertEquals("sk-local-123", last.key(), "the connection test uses the key being typed");
    assertEquals(List.of("qwen2.5-7b-instruct"), m.models());
    assertEquals(ModelCatalog.ToolUse.NOT_SAID, m.toolUse("qwen2.5-7b-instruct"));
    assertEquals("", m.warningProperty().get(), "no warning where the server says nothing");
    m.modelProperty().set("qwen2.5-7b-instruct");
    assertTrue(m.save());
    String settings = Files.readString(dir.resolve("config/settings.json"));
    assertTrue(settings.contains("\"provider\" : \"openai_compatible\""), settings);
    assertTrue(settings.contains("\"openai_url\" : \"http://127.0.0.1:1234/v1\""), settings);
    assertTrue(settings.contains("\"ollama_url\" : \"http://localhost:11434\""), settings);
    assertFalse(settings.contains("sk-local"), "the key is not a setting");
    Path secrets = dir.resolve("config/secrets.json");
    assertTrue(Files.readString(secrets).contains("\"api_key\" : \"sk-local-123\""));
    assertEquals(
        "rw-------",
        java.nio.file.attribute.PosixFilePermissions.toString(
            Files.getPosixFilePermissions(secrets)));
    assertEquals("", m.newKeyProperty().get(), "the typed key is not kept on screen");
    assertTrue(m.keySavedProperty().get());
    assertTrue(
        Files.readString(secrets).contains("\"api_key_origin\" : \"http://127.0.0.1:1234\""));
    // Another server does not get the key: not when tested, not once saved.
    m.urlProperty().set("http://127.0.0.1:8080/v1");
    m.testConnection();
    assertEquals(null, asked.get(asked.size() - 1).key(), "the key goes to its own server only");
    assertTrue(m.save());
    assertTrue(
        m.statusProperty().get().contains("is not sent to this one"),
        m.statusProperty().get());
    m.urlProperty().set("http://127.0.0.1:1234/another/path");
    m.testConnection();
    assertEquals("sk-local-123", asked.get(asked.size() - 1).key(), "its own server still does");
    m.urlProperty().set("http://127.0.0.1:1234/v1");
    assertTrue(m.save());
    m.providerProperty().set(AppSettings.OLLAMA);
    assertEquals("http://localhost:11434", m.urlProperty().get(), "each kind keeps its address");
    m.providerProperty().set(AppSettings.OPENAI_COMPATIBLE);
    assertEquals("http://127.0.0.1:1234/v1", m.urlProperty().get());
    m.removeKey();
    assertFalse(Files.readString(secrets).contains("sk-local"));
    assertFalse(m.keySavedProperty().get());
  }

  @Test
  void savingTheThemeWritesTheThemeAndNeverAValueFromTheEnvironment() throws Exception {
    Files.createDirectories(dir.resolve("config"));
    Files.writeString(
        dir.resolve("config/settings.json"),
        "{\"ollama_url\": \"http://my-server:11434\", \"model\": \"mine\"}");
    SettingsStore store = new SettingsStore(
        StewardPlaces.under(dir, dir),
        Map.of("STEWARD_OLLAMA_URL", "http://from-env:9999", "STEWARD_MODEL", "env-model"));
    SettingsViewModel vm = new SettingsViewModel(
        Runnable::run,
        Runnable::run,
        store,
        new ModelKey(StewardPlaces.under(dir, dir).secretsFile()),
        store.load().settings(),
        servers);
    assertEquals(
        "http://from-env:9999",
        vm.model().urlProperty().get(),
        "the environment is what is in force");
    vm.theme().themeProperty().set("dark");
    vm.theme().save();
    vm.model().save(); // saved as shown: the values in force, which came from the environment
    String file = Files.readString(dir.resolve("config/settings.json"));
    assertTrue(file.contains("\"theme\" : \"dark\""), file);
    assertTrue(
        file.contains("http://my-server:11434") && file.contains("\"mine\""),
        "the user's own values stay: " + file);
    assertFalse(file.contains("from-env") || file.contains("env-model"), file);
    assertEquals("http://from-env:9999", store.load().settings().ollamaUrl());
  }
}
