/**
 * The mail pack (SPEC §13, seeds 000 and 002): a dedicated mailbox the user forwards mail to.
 * New mail is read over IMAP in the background and kept once each (metadata and an extractive
 * summary in an H2 database under {@code data/mail/}, the text, raw message and attachments in a
 * folder per mail); {@code mail.search} and {@code mail.read} answer from there, and reading a
 * mail taints the conversation; {@code mail.send} sends over SMTP with an exact-arguments token.
 */
@NullMarked
package dev.steward.service.tools.mail;

import org.jspecify.annotations.NullMarked;
