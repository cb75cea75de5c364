package dev.steward.service.tools;

import dev.steward.protocol.method.PackSettings;
import dev.steward.protocol.policy.PolicyDocument;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A tool pack (SPEC §13): the tools of one package, found with {@link java.util.ServiceLoader}
 * (so a pack can also ship as a jar of its own). A pack builds on the tool contract and the scope
 * rules only — never on the gate, the transport, the audit log or another pack — so adding one
 * changes none of them.
 */
public interface ToolPack extends AutoCloseable {

  /** A short lower-case name, the first part of its tools' names where it can be. */
  String name();

  /** The pack's tools for this service; called once, at start. */
  List<Tool> tools(PackContext context);

  /** Tools that come and go while the service runs; called once, at start. */
  default List<ToolFamily> families(PackContext context) {
    return List.of();
  }

  /**
   * The pack's settings section, where it has one: the window shows it as a form (its values the
   * object at the section's key in {@code policy.json}, its secrets set through {@code
   * secrets.set} under the pack's name), and the service refuses a policy whose values do not fit
   * it. A pack without a key of its own in {@code policy.json} uses {@code packs.<its name>}.
   */
  default Optional<PackSettings.Section> settings() {
    return Optional.empty();
  }

  /**
   * The policy without the secrets a user may have put in the pack's part of it (an MCP server's
   * {@code env}, pasted as other apps keep it): {@code policy.json} never holds them (SPEC §13).
   * Pure; {@link #keepSecrets} stores what it leaves out.
   */
  default PolicyDocument withoutSecrets(PolicyDocument doc) {
    return doc;
  }

  /**
   * Keeps in {@code config/secrets.json} what {@link #withoutSecrets} leaves out of {@code doc};
   * answers how to put it back as it was, should the policy then fail to be written.
   */
  default SecretTable.Undo keepSecrets(PolicyDocument doc, PackSecrets secrets) throws IOException {
    return () -> {};
  }

  /** Methods the window calls to configure the pack (ui role only). */
  default List<PackMethod> methods() {
    return List.of();
  }

  /**
   * Starts what the pack runs in the background (servers of its own); called once the service
   * answers, so nothing here delays its readiness. Returns at once.
   */
  default void start() {}

  /**
   * Work the pack's first call would otherwise pay that acts on nothing outside the service:
   * classes loaded, clients and engines built (issue 23). Run once on the warm-up thread, when the
   * service is idle, after the warm-up's calls. It reads and writes none of the user's things,
   * resolves no host, and connects to nothing but the service's own loopback sockets.
   */
  default void prime() {}

  /**
   * Calls to run on idle after start (issue 23: fast from the first call), on data this method
   * makes in {@code scratch}, a folder of the pack's own under Steward's data folder that it may
   * keep between starts. Called on the warm-up thread, once the service answers.
   */
  default List<WarmupCall> warmups(Path scratch) throws IOException {
    return List.of();
  }

  /** Releases what the pack's tools hold (a browser, a connection); called when the service stops. */
  @Override
  default void close() {}
}
