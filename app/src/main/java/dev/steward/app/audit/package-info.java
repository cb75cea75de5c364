/** The audit panel: every call the service saw, filters, details, chain status, Undo, export. */
@NullMarked
package dev.steward.app.audit;

import org.jspecify.annotations.NullMarked;
