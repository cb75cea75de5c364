/**
 * The household pack (SPEC §13, seed 001): recipes, a meal planner and grocery lists, whose tools
 * are deterministic, validated, idempotent and undoable, and whose quantities add as exact
 * decimals. Its data lives in an H2 database under {@code data/household/}, or in a PostgreSQL
 * database a household shares, where row-level security keeps households apart.
 */
@NullMarked
package dev.steward.service.tools.household;

import org.jspecify.annotations.NullMarked;
