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
}
