-- The household pack's tables (seed 001), in SQL that H2 and PostgreSQL both take.
-- Every row belongs to the database role that wrote it: on PostgreSQL each household connects as
-- its own role and row-level security (V2) keeps the households apart; on H2 there is one.
-- A live row has deleted_at null; names are unique among live rows through live_* columns, which
-- are null once a row is deleted (nulls never clash in a unique constraint).

CREATE TABLE recipe (
  id            VARCHAR(36)     NOT NULL PRIMARY KEY,
  household     VARCHAR(63)     DEFAULT CURRENT_USER NOT NULL,
  title         VARCHAR(200)    NOT NULL,
  live_title    VARCHAR(200),
  ingredients   VARCHAR(200000) NOT NULL,
  instructions  VARCHAR(100000),
  tags          VARCHAR(10000)  NOT NULL,
  rating        INTEGER,
  notes         VARCHAR(100000),
  created_at    TIMESTAMP WITH TIME ZONE NOT NULL,
  updated_at    TIMESTAMP WITH TIME ZONE NOT NULL,
  deleted_at    TIMESTAMP WITH TIME ZONE,
  CONSTRAINT recipe_title_unique UNIQUE (household, live_title)
);

CREATE TABLE planner_meal (
  id            VARCHAR(36)     NOT NULL PRIMARY KEY,
  household     VARCHAR(63)     DEFAULT CURRENT_USER NOT NULL,
  recipe_id     VARCHAR(36)     NOT NULL REFERENCES recipe (id),
  meal_date     DATE            NOT NULL,
  meal_type     VARCHAR(10)     NOT NULL,
  created_at    TIMESTAMP WITH TIME ZONE NOT NULL,
  deleted_at    TIMESTAMP WITH TIME ZONE
);
CREATE INDEX planner_meal_date ON planner_meal (household, meal_date);

CREATE TABLE grocery_list (
  id            VARCHAR(36)     NOT NULL PRIMARY KEY,
  household     VARCHAR(63)     DEFAULT CURRENT_USER NOT NULL,
  name          VARCHAR(200)    NOT NULL,
  live_name     VARCHAR(200),
  created_at    TIMESTAMP WITH TIME ZONE NOT NULL,
  updated_at    TIMESTAMP WITH TIME ZONE NOT NULL,
  deleted_at    TIMESTAMP WITH TIME ZONE,
  CONSTRAINT grocery_list_name_unique UNIQUE (household, live_name)
);

CREATE TABLE grocery_item (
  id                VARCHAR(36)    NOT NULL PRIMARY KEY,
  household         VARCHAR(63)    DEFAULT CURRENT_USER NOT NULL,
  list_id           VARCHAR(36)    NOT NULL REFERENCES grocery_list (id),
  position          INTEGER        NOT NULL,
  ingredient_id     VARCHAR(64),
  name              VARCHAR(200)   NOT NULL,
  quantity          DECIMAL(18, 6) NOT NULL,
  unit              VARCHAR(10)    NOT NULL,
  prep_state        VARCHAR(40),
  source_recipe_ids VARCHAR(10000) NOT NULL,
  checked           BOOLEAN        NOT NULL,
  created_at        TIMESTAMP WITH TIME ZONE NOT NULL,
  updated_at        TIMESTAMP WITH TIME ZONE NOT NULL,
  deleted_at        TIMESTAMP WITH TIME ZONE
);
CREATE INDEX grocery_item_list ON grocery_item (list_id, position);

-- The first result of every write that carried an idempotency key: a retry gets it back and
-- changes nothing. Kept apart from the rows an undo puts back.
CREATE TABLE household_write (
  household         VARCHAR(63)    DEFAULT CURRENT_USER NOT NULL,
  idempotency_key   VARCHAR(100)   NOT NULL,
  tool              VARCHAR(64)    NOT NULL,
  args_hash         VARCHAR(64)    NOT NULL,
  result            VARCHAR(1000000) NOT NULL,
  created_at        TIMESTAMP WITH TIME ZONE NOT NULL,
  PRIMARY KEY (household, idempotency_key)
);
