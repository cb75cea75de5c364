-- The household pack's tables (seed 001), in SQL that H2 and PostgreSQL both take.
-- Every row belongs to the database role that wrote it: on PostgreSQL each household connects as
-- its own role and row-level security (V2) keeps the households apart; on H2 there is one.
-- A live row has deleted_at null; names are unique among live rows through live_* columns (the name
-- in lower case), which are null once a row is deleted (nulls never clash in a unique constraint).
-- Keys include the household, so another household's ids can be neither referred to nor probed.
-- Text columns hold twice the characters the tools' schemas allow (a schema counts code points).

CREATE TABLE recipe (
  id            VARCHAR(36)     NOT NULL,
  household     VARCHAR(63)     DEFAULT CURRENT_USER NOT NULL,
  title         VARCHAR(400)    NOT NULL,
  live_title    VARCHAR(400),
  ingredients   VARCHAR(200000) NOT NULL,
  instructions  VARCHAR(100000),
  tags          VARCHAR(10000)  NOT NULL,
  rating        INTEGER,
  notes         VARCHAR(100000),
  created_at    TIMESTAMP WITH TIME ZONE NOT NULL,
  updated_at    TIMESTAMP WITH TIME ZONE NOT NULL,
  deleted_at    TIMESTAMP WITH TIME ZONE,
  PRIMARY KEY (household, id),
  CONSTRAINT recipe_title_unique UNIQUE (household, live_title)
);

CREATE TABLE planner_meal (
  id            VARCHAR(36)     NOT NULL,
  household     VARCHAR(63)     DEFAULT CURRENT_USER NOT NULL,
  recipe_id     VARCHAR(36)     NOT NULL,
  meal_date     DATE            NOT NULL,
  meal_type     VARCHAR(10)     NOT NULL,
  created_at    TIMESTAMP WITH TIME ZONE NOT NULL,
  deleted_at    TIMESTAMP WITH TIME ZONE,
  PRIMARY KEY (household, id),
  FOREIGN KEY (household, recipe_id) REFERENCES recipe (household, id)
);
CREATE INDEX planner_meal_date ON planner_meal (household, meal_date);

CREATE TABLE grocery_list (
  id            VARCHAR(36)     NOT NULL,
  household     VARCHAR(63)     DEFAULT CURRENT_USER NOT NULL,
  name          VARCHAR(400)    NOT NULL,
  live_name     VARCHAR(400),
  created_at    TIMESTAMP WITH TIME ZONE NOT NULL,
  updated_at    TIMESTAMP WITH TIME ZONE NOT NULL,
  deleted_at    TIMESTAMP WITH TIME ZONE,
  PRIMARY KEY (household, id),
  CONSTRAINT grocery_list_name_unique UNIQUE (household, live_name)
);

CREATE TABLE grocery_item (
  id                VARCHAR(36)    NOT NULL,
  household         VARCHAR(63)    DEFAULT CURRENT_USER NOT NULL,
  list_id           VARCHAR(36)    NOT NULL,
  position          INTEGER        NOT NULL,
  ingredient_id     VARCHAR(64),
  name              VARCHAR(400)   NOT NULL,
  quantity          DECIMAL(18, 6) NOT NULL,
  unit              VARCHAR(10)    NOT NULL,
  prep_state        VARCHAR(80),
  source_recipe_ids VARCHAR(10000) NOT NULL,
  checked           BOOLEAN        NOT NULL,
  created_at        TIMESTAMP WITH TIME ZONE NOT NULL,
  updated_at        TIMESTAMP WITH TIME ZONE NOT NULL,
  deleted_at        TIMESTAMP WITH TIME ZONE,
  PRIMARY KEY (household, id),
  FOREIGN KEY (household, list_id) REFERENCES grocery_list (household, id)
);
CREATE INDEX grocery_item_list ON grocery_item (household, list_id, position);

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
