package dev.steward.service.tools;

import dev.steward.protocol.method.PackSettings;
import java.util.List;
import java.util.ServiceLoader;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Finds the tool packs on the class path ({@link ServiceLoader}) and gathers their tools. */
public final class ToolPacks {

  private static final Logger LOG = Logger.getLogger(ToolPacks.class.getName());

  private ToolPacks() {}

  /** Every pack registered under {@code META-INF/services/dev.steward.service.tools.ToolPack}. */
  public static List<ToolPack> load() {
    return ServiceLoader.load(ToolPack.class, ToolPacks.class.getClassLoader()).stream()
        .map(ServiceLoader.Provider::get)
        .toList();
  }

  /** The packs' tools by name; two tools of one name are an error that names the packs. */
  public static ToolRegistry registry(List<ToolPack> packs, PackContext context) {
    ToolRegistry registry = new ToolRegistry();
    for (ToolPack pack : packs) {
      for (Tool tool : pack.tools(context)) {
        try {
          registry.register(tool);
        } catch (IllegalArgumentException e) {
          throw new IllegalStateException(
              "the pack \"" + pack.name() + "\" offers " + tool.name()
                  + ", which another pack offers too",
              e);
        }
      }
      for (ToolFamily family : pack.families(context)) {
        try {
          registry.register(family);
        } catch (IllegalArgumentException e) {
          throw new IllegalStateException(
              "the pack \"" + pack.name() + "\" offers tools under " + family.prefix()
                  + ", where another pack has tools too",
              e);
        }
      }
    }
    return registry;
  }

  /** The packs' settings sections by the name of the pack that declares each. */
  public static java.util.Map<String, PackSettings.Section> settings(List<ToolPack> packs) {
    java.util.Map<String, PackSettings.Section> byPack = new java.util.LinkedHashMap<>();
    for (ToolPack pack : packs) {
      pack.settings().ifPresent(section -> {
        if (byPack.putIfAbsent(pack.name(), section) != null)
          throw new IllegalStateException("two packs are named \"" + pack.name() + "\"");
      });
    }
    return byPack;
  }

  /** The packs' secrets kept apart from the policy, as the policy store applies them. */
  public static dev.steward.service.policy.SecretsApart secretsApart(
      List<ToolPack> packs, PackSecrets secrets) {
    return new dev.steward.service.policy.SecretsApart() {
      @Override
      public dev.steward.protocol.policy.PolicyDocument without(
          dev.steward.protocol.policy.PolicyDocument doc) {
        for (ToolPack pack : packs) doc = pack.withoutSecrets(doc);
        return doc;
      }

      @Override
      public Undo keep(dev.steward.protocol.policy.PolicyDocument doc) throws java.io.IOException {
        List<SecretTable.Undo> done = new java.util.ArrayList<>();
        Undo undo = () -> {
          for (int i = done.size() - 1; i >= 0; i--) done.get(i).run();
        };
        try {
          for (ToolPack pack : packs) done.add(pack.keepSecrets(doc, secrets));
        } catch (java.io.IOException | RuntimeException e) {
          undo.run();
          throw e;
        }
        return undo;
      }
    };
  }

  public static void close(List<ToolPack> packs) {
    for (ToolPack pack : packs) {
      try {
        pack.close();
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "the pack \"" + pack.name() + "\" did not close cleanly", e);
      }
    }
  }
}
