/**
 * The calendar pack (SPEC §13, seed 000): one dedicated CalDAV calendar, never the rest of the
 * account. Free and busy times are always open ({@code calendar.availability}); titles of events
 * Steward made are open, of any other event they take a click ({@code calendar.events}); every
 * change takes a click and can be undone, and a change made elsewhere in the meantime is never
 * overwritten (ETags).
 */
@NullMarked
package dev.steward.service.tools.calendar;

import org.jspecify.annotations.NullMarked;
