package dev.steward.service.tools;

import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.service.scope.HostResolver;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What the service hands a pack when it builds its tools: the policy in force at each call (read
 * it per call: the user can change it at any time), the user's home folder, the service's data
 * folder (a pack keeps its state in a sub-folder named after itself), the environment the
 * service started with, the one resolver through which host names are looked up, and a way to be
 * told when the user changes the policy (a pack that keeps servers running follows it), a way
 * to tell the window that the pack's tools changed, the pack's secrets, and the address a
 * browser comes back to after a sign-in the pack asked for. {@code privateFolders} are Steward's own
 * (its secrets, its data, its run folder): what a pack starts must not see into them.
 */
public record PackContext(
    Supplier<PolicyDocument> policy,
    Path userHome,
    Path data,
    Map<String, String> environment,
    HostResolver resolver,
    Consumer<Runnable> onPolicyChange,
    Runnable toolsChanged,
    java.util.List<Path> privateFolders,
    PackSecrets secrets,
    BrowserReturns returns) {

  public PackContext {
    environment = Map.copyOf(environment);
    privateFolders = java.util.List.copyOf(privateFolders);
  }

  /** A context whose policy never changes (tests, benchmarks). */
  public PackContext(
      Supplier<PolicyDocument> policy,
      Path userHome,
      Path data,
      Map<String, String> environment,
      HostResolver resolver) {
    this(
        policy,
        userHome,
        data,
        environment,
        resolver,
        listener -> {},
        () -> {},
        java.util.List.of(data),
        PackSecrets.none(),
        new BrowserReturns());
  }
}
