package dev.steward.service.rpc;

import dev.steward.protocol.jsonrpc.Notification;
import dev.steward.protocol.method.Role;

/** One client connection, as the methods see it. */
public interface Session {

  Role role();

  /** A short id for logs and audit rows. */
  String id();

  void send(Notification notification);
}
