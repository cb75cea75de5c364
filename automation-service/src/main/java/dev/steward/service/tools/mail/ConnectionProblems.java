package dev.steward.service.tools.mail;

import dev.steward.protocol.policy.PolicyDocument;
import jakarta.mail.AuthenticationFailedException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;

/**
 * What went wrong reaching a mail server, said so the user can fix it: an unknown host, a refused
 * connection, a TLS failure, a refused sign-in. Never the password, even if a server echoed it.
 */
final class ConnectionProblems {

  private ConnectionProblems() {}

  static String describe(Throwable e, PolicyDocument.Mail.Server server, String password) {
    String where = server.host() + ":" + server.port();
    String said = said(e, server, where);
    return password.isEmpty() ? said : said.replace(password, "********");
  }

  private static String said(Throwable e, PolicyDocument.Mail.Server server, String where) {
    if (find(e, AuthenticationFailedException.class) != null) {
      return "authentication refused: " + where
          + " did not accept the user name and password (check them; some providers need an app"
          + " password)";
    }
    if (find(e, UnknownHostException.class) != null) {
      return "unknown host: " + server.host() + " cannot be found (check its spelling)";
    }
    if (find(e, ConnectException.class) != null) {
      return "connection refused: nothing answers at " + where + " (check the port)";
    }
    if (find(e, NoRouteToHostException.class) != null) {
      return "no route to " + where + " (check the network)";
    }
    if (find(e, SocketTimeoutException.class) != null) {
      return "no answer from " + where + " in time (check the host, the port and any firewall)";
    }
    SSLException tls = find(e, SSLException.class);
    if (tls != null) {
      String why = firstLine(tls.getMessage());
      if (tls instanceof SSLHandshakeException && why.contains("PKIX")) {
        why = "its certificate is not trusted";
      }
      return "TLS failure with " + where + ": " + why
          + (server.tls() ? " (does the server speak TLS on this port? 993 and 465 do)" : "");
    }
    String message = firstLine(e.getMessage());
    if (message.toLowerCase(java.util.Locale.ROOT).contains("starttls")) {
      return "TLS failure with " + where + ": the server does not offer STARTTLS, and a password"
          + " is never sent in the clear (use the server's TLS port)";
    }
    return "failed with " + where + ": " + message;
  }

  private static <T extends Throwable> @org.jspecify.annotations.Nullable T find(
      Throwable e, Class<T> type) {
    for (@org.jspecify.annotations.Nullable Throwable t = e; t != null; t = t.getCause()) {
      if (type.isInstance(t)) return type.cast(t);
      if (t instanceof jakarta.mail.MessagingException m
          && m.getNextException() != null
          && m.getNextException() != t.getCause()) {
        T inner = find(m.getNextException(), type);
        if (inner != null) return inner;
      }
    }
    return null;
  }

  private static String firstLine(@org.jspecify.annotations.Nullable String message) {
    if (message == null || message.isBlank()) return "no reason given";
    int nl = message.indexOf('\n');
    return (nl < 0 ? message : message.substring(0, nl)).strip();
  }
}
