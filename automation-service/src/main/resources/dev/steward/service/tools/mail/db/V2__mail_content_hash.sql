-- A mail's content hash (SHA-256 of its sender, subject and text): the same Message-ID counts as
-- the same mail only when this matches too, so a stranger who sends a known Message-ID first does
-- not suppress the real mail. Rows kept before it have none and are matched by sender and subject.

ALTER TABLE mail ADD COLUMN content_hash VARCHAR(64);
