-- The mail pack's store: one row per mail kept, and one per message of the mailbox seen, so that
-- each message is ingested once, across restarts, even one that could not be read.

CREATE TABLE mail (
  mail_id         VARCHAR(32)    NOT NULL PRIMARY KEY,
  message_id      VARCHAR(1000),
  from_addr       VARCHAR(2000)  NOT NULL,
  to_addrs        VARCHAR(20000) NOT NULL,
  subject         VARCHAR(2000)  NOT NULL,
  sent_at         TIMESTAMP WITH TIME ZONE NOT NULL,
  summary         VARCHAR(4000)  NOT NULL,
  summary_source  VARCHAR(16)    NOT NULL,
  -- subject and summary in lower case: what mail.search matches words against
  search_text     VARCHAR(8000)  NOT NULL,
  ingested_at     TIMESTAMP WITH TIME ZONE NOT NULL,
  CONSTRAINT mail_summary_source CHECK (summary_source IN ('extractive', 'model'))
);
CREATE INDEX mail_sent ON mail (sent_at DESC);
CREATE INDEX mail_message ON mail (message_id);

CREATE TABLE mail_attachment (
  mail_id   VARCHAR(32)   NOT NULL,
  position  INTEGER       NOT NULL,
  name      VARCHAR(1000) NOT NULL,
  file_name VARCHAR(200)  NOT NULL,
  size      BIGINT        NOT NULL,
  type      VARCHAR(200)  NOT NULL,
  PRIMARY KEY (mail_id, position),
  FOREIGN KEY (mail_id) REFERENCES mail (mail_id)
);

-- A message of the mailbox (IMAP UIDVALIDITY and UID) the pack has seen: the mail it became, or
-- why it could not be read.
CREATE TABLE mail_seen (
  uid_validity BIGINT        NOT NULL,
  uid          BIGINT        NOT NULL,
  mail_id      VARCHAR(32),
  problem      VARCHAR(1000),
  seen_at      TIMESTAMP WITH TIME ZONE NOT NULL,
  PRIMARY KEY (uid_validity, uid)
);
