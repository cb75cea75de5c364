/** Syntax colouring for the code the window shows: a run's program in the approval dialog. */
@NullMarked
package dev.steward.app.syntax;

import org.jspecify.annotations.NullMarked;
