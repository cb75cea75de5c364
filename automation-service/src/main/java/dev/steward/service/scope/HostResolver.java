package dev.steward.service.scope;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Looks host names up: the one way the service turns a name into addresses, so that whether a
 * name has been sent to a resolver (data leaving the machine, SPEC §10) is decided in one place.
 */
@FunctionalInterface
public interface HostResolver {

  InetAddress[] resolve(String host) throws UnknownHostException;

  /** The system's resolver. */
  static HostResolver system() {
    return InetAddress::getAllByName;
  }
}
