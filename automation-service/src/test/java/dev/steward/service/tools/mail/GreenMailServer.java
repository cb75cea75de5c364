package dev.steward.service.tools.mail;

import com.icegreen.greenmail.user.GreenMailUser;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import com.icegreen.greenmail.util.ServerSetupTest;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import java.io.ByteArrayInputStream;
import java.util.Properties;

/**
 * GreenMail in this process, SMTP and IMAP on loopback on ports of its own, with the assistant's
 * mailbox ({@link #ADDRESS}, signed in as {@link #USER} with {@link #PASSWORD}).
 */
public final class GreenMailServer implements AutoCloseable {

  public static final String ADDRESS = "assistant@example.test";
  public static final String USER = "assistant";
  public static final String PASSWORD = "greenmail-secret-7";

  public final GreenMail mail;
  public final GreenMailUser user;
  private final Session session = Session.getInstance(new Properties());

  public GreenMailServer() {
    mail = new GreenMail(
        new ServerSetup[] {ServerSetupTest.SMTP.dynamicPort(), ServerSetupTest.IMAP.dynamicPort()});
    mail.start();
    user = mail.setUser(ADDRESS, USER, PASSWORD);
  }

  public int imapPort() {
    return mail.getImap().getPort();
  }

  public int smtpPort() {
    return mail.getSmtp().getPort();
  }

  /** Puts a raw message into the assistant's INBOX, as a forward would arrive. */
  public void deliver(byte[] raw) {
    try {
      user.deliver(new MimeMessage(session, new ByteArrayInputStream(raw)));
    } catch (MessagingException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    mail.stop();
  }
}
