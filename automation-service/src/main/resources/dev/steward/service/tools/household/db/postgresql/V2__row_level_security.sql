-- A household shares one PostgreSQL database with others: each connects as its own role, and the
-- database itself keeps their rows apart (as seed 001's Supabase design does). FORCE makes the
-- tables' owner obey the policies too, so the role that ran the migrations is one more household.
ALTER TABLE recipe ENABLE ROW LEVEL SECURITY;
ALTER TABLE recipe FORCE ROW LEVEL SECURITY;
CREATE POLICY household_rows ON recipe
  USING (household = current_user) WITH CHECK (household = current_user);

ALTER TABLE planner_meal ENABLE ROW LEVEL SECURITY;
ALTER TABLE planner_meal FORCE ROW LEVEL SECURITY;
CREATE POLICY household_rows ON planner_meal
  USING (household = current_user) WITH CHECK (household = current_user);

ALTER TABLE grocery_list ENABLE ROW LEVEL SECURITY;
ALTER TABLE grocery_list FORCE ROW LEVEL SECURITY;
CREATE POLICY household_rows ON grocery_list
  USING (household = current_user) WITH CHECK (household = current_user);

ALTER TABLE grocery_item ENABLE ROW LEVEL SECURITY;
ALTER TABLE grocery_item FORCE ROW LEVEL SECURITY;
CREATE POLICY household_rows ON grocery_item
  USING (household = current_user) WITH CHECK (household = current_user);

ALTER TABLE household_write ENABLE ROW LEVEL SECURITY;
ALTER TABLE household_write FORCE ROW LEVEL SECURITY;
CREATE POLICY household_rows ON household_write
  USING (household = current_user) WITH CHECK (household = current_user);

-- Every household role may use the tables; the policies above decide which rows it sees.
GRANT SELECT, INSERT, UPDATE, DELETE ON recipe, planner_meal, grocery_list, grocery_item,
  household_write TO PUBLIC;
GRANT SELECT ON flyway_schema_history TO PUBLIC;
