package dev.steward.app.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.app.config.SettingsStore;
import dev.steward.protocol.client.ClientException;
import dev.steward.protocol.home.StewardPlaces;
import dev.steward.protocol.jsonrpc.RpcError;
import dev.steward.protocol.policy.PolicyDocument;
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
    PolicyDocument doc = PolicyDocument.defaults().withGrants(List.of(
        new PolicyDocument.StandingGrant("g1", "files.write_text", List.of("/home/u/Notes"), null, null)));
    final List<PolicyDocument> saved = new ArrayList<>();

    @Override
    public PolicyDocument get() {
      return doc;
    }

    @Override
    public PolicyDocument update(PolicyDocument next) {
      for (PolicyDocument.PathRoot r : next.paths()) {
        if (r.root().contains("missing")) throw ClientException.rpc(RpcError.of(-32602, "policy.json: the folder \"" + r.root() + "\" does not exist"));
      }
      for (String h : next.hosts().allow()) {
        if (h.contains("/") || h.contains(" ")) throw ClientException.rpc(RpcError.of(-32602, "policy.json: \"" + h + "\" in hosts.allow is not a host name"));
      }
      doc = next;
      saved.add(next);
      return next;
    }
  }

  @TempDir Path dir;
  private final Service service = new Service();

  private SettingsViewModel vm() {
    SettingsStore store = new SettingsStore(StewardPlaces.under(dir, dir), Map.of());
    SettingsViewModel vm = new SettingsViewModel(Runnable::run, Runnable::run, store, store.load().settings(), url -> List.of("qwen2.5:7b", "llama3.2"));
    vm.attach(service);
    return vm;
  }

  @Test
  void showsThePolicy() {
    SettingsViewModel vm = vm();
    assertEquals(3, vm.folders().size());
    assertEquals(List.of("en.wikipedia.org"), vm.hosts());
    assertEquals("g1", vm.grants().get(0).id());
  }

  @Test
  void aMissingFolderIsRefusedBesideTheFieldAndNothingIsSaved() {
    SettingsViewModel vm = vm();
    vm.newFolderProperty().set("~/missing");
    vm.addFolder();
    assertTrue(vm.folderErrorProperty().get().contains("does not exist"), vm.folderErrorProperty().get());
    assertTrue(service.saved.isEmpty());
    assertEquals("~/missing", vm.newFolderProperty().get(), "the typed text stays for correcting");
    vm.newFolderProperty().set("~/Notes");
    vm.newFolderWritableProperty().set(true);
    vm.addFolder();
    assertEquals("", vm.folderErrorProperty().get());
    assertTrue(vm.folders().contains(new PolicyDocument.PathRoot("~/Notes", "read_write")));
  }

  @Test
  void aMalformedHostIsRefused() {
    SettingsViewModel vm = vm();
    vm.newHostProperty().set("https://evil.example/x");
    vm.addHost();
    assertTrue(vm.hostErrorProperty().get().contains("not a host name"));
    assertEquals(List.of("en.wikipedia.org"), vm.hosts());
    vm.newHostProperty().set("Docs.Example.org");
    vm.addHost();
    assertEquals(List.of("en.wikipedia.org", "docs.example.org"), vm.hosts());
  }

  @Test
  void revokingAGrantRemovesItFromThePolicy() {
    SettingsViewModel vm = vm();
    vm.revoke(vm.grants().get(0));
    assertTrue(service.doc.grants().isEmpty());
    assertTrue(vm.grants().isEmpty());
  }

  @Test
  void theModelPickerIsFilledFromTheServerAndABadUrlIsNotSaved() throws Exception {
    SettingsViewModel vm = vm();
    vm.ollamaUrlProperty().set("localhost:11434");
    assertFalse(vm.saveModel());
    assertTrue(vm.urlErrorProperty().get().startsWith("The server's address starts with http"));
    assertFalse(Files.exists(dir.resolve("config/settings.json")));
    vm.ollamaUrlProperty().set("http://127.0.0.1:11434");
    vm.testConnection();
    assertEquals(List.of("qwen2.5:7b", "llama3.2"), vm.models());
    vm.modelProperty().set("llama3.2");
    assertTrue(vm.saveModel());
    assertTrue(Files.readString(dir.resolve("config/settings.json")).contains("\"model\" : \"llama3.2\""));
  }
}
