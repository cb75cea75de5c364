-- Rows whose words came from a stranger (ADR 42): written by a conversation that had taken in
-- untrusted content. A later read that shows such a row taints the conversation reading it, else
-- a new conversation would read the injection clean. Only tables whose rows hold words carry the
-- mark: a planned meal holds none of its own (the title it shows is its recipe's).
-- Rows written before this column count as the household's own. The tools name every column they
-- write; a row inserted by other means (hand-written SQL) counts as a stranger's.
ALTER TABLE recipe ADD COLUMN from_strangers BOOLEAN DEFAULT FALSE NOT NULL;
ALTER TABLE recipe ALTER COLUMN from_strangers SET DEFAULT TRUE;
ALTER TABLE grocery_list ADD COLUMN from_strangers BOOLEAN DEFAULT FALSE NOT NULL;
ALTER TABLE grocery_list ALTER COLUMN from_strangers SET DEFAULT TRUE;
ALTER TABLE grocery_item ADD COLUMN from_strangers BOOLEAN DEFAULT FALSE NOT NULL;
ALTER TABLE grocery_item ALTER COLUMN from_strangers SET DEFAULT TRUE;
-- A replay gives back the first result: it is a stranger's when the first one was.
ALTER TABLE household_write ADD COLUMN from_strangers BOOLEAN DEFAULT FALSE NOT NULL;
ALTER TABLE household_write ALTER COLUMN from_strangers SET DEFAULT TRUE;
