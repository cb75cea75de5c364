package dev.steward.service.tools.mail;

import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.tools.PackContext;
import dev.steward.service.tools.ToolFailure;
import java.io.IOException;
import java.sql.SQLException;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * What the pack's tools, methods and ingester share: the configuration as it is now and the
 * store, opened on first use (so a service whose user never sets mail up never creates it).
 */
final class Mailbox implements AutoCloseable {

  /** The store, opened when first asked for. */
  @FunctionalInterface
  interface StoreSource {
    MailStore get() throws IOException, SQLException;
  }

  private static final Logger LOG = Logger.getLogger(Mailbox.class.getName());

  private final PackContext context;
  private @Nullable MailStore store;
  private boolean closed;

  Mailbox(PackContext context) {
    this.context = context;
  }

  MailConfig.Configured configured() {
    return MailConfig.read(context.policy().get(), context.secrets());
  }

  Optional<String> unavailable() {
    return configured().unavailable();
  }

  MailConfig config() throws ToolFailure {
    MailConfig.Configured c = configured();
    MailConfig config = c.config();
    if (config == null) {
      throw new ToolFailure(ToolErrorCodes.UNAVAILABLE, c.unavailable().orElse("not set up"));
    }
    return config;
  }

  synchronized MailStore open() throws IOException, SQLException {
    if (closed) throw new IOException("the mail pack is stopped");
    MailStore s = store;
    if (s == null) {
      s = MailStore.open(context.data().resolve(MailConfig.SECTION));
      store = s;
    }
    return s;
  }

  /** The store for a tool or a method: a failure to open it is said as the tool's. */
  MailStore store() throws ToolFailure {
    try {
      return open();
    } catch (IOException | SQLException e) {
      LOG.log(Level.WARNING, "mail: the store cannot be opened", e);
      throw new ToolFailure(
          ToolErrorCodes.UNAVAILABLE, "the mail store cannot be opened: " + e.getMessage());
    }
  }

  static ToolFailure failure(String what, Exception e) {
    LOG.log(Level.WARNING, "mail: " + what, e);
    return new ToolFailure(ToolErrorCodes.EXECUTION_ERROR, what + ": " + e.getMessage());
  }

  @Override
  public synchronized void close() {
    closed = true;
    MailStore s = store;
    store = null;
    if (s != null) s.close();
  }
}
