-- When a keyed write was undone: a retry with its key is then refused rather than answered with a
-- first result that no longer holds (ADR 24).
ALTER TABLE household_write ADD COLUMN undone_at TIMESTAMP WITH TIME ZONE;
