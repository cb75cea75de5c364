package dev.steward.service.rpc;

import dev.steward.protocol.jsonrpc.Notification;
import dev.steward.protocol.method.Role;

/** One client connection, as the methods see it. */
public interface Session {

  Role role();

  /** A short id for logs and audit rows. */
  String id();

  void send(Notification notification);

  /** The client's name as its {@code session.hello} gave it (the role until then). */
  default String client() {
    return role().wire();
  }

  /** Keeps the name a {@code session.hello} gave; a client may say it again once it knows it. */
  default void named(String client) {}

  /**
   * A client's name as it may be kept: it is shown in the window's dialog and written into audit
   * rows, so letters, digits and a few marks only — no quotes, no direction overrides, no line
   * separators — and short; null when nothing is left.
   */
  static @org.jspecify.annotations.Nullable String cleanName(String name) {
    String clean = name.replaceAll("[^\\p{L}\\p{N} ._()/:+@-]", "").strip();
    if (clean.isEmpty()) return null;
    return clean.length() > 80 ? clean.substring(0, 80) : clean;
  }
}
