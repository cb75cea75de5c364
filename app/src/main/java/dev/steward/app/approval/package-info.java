/** The confirmation dialog: its view model and its view. */
@NullMarked
package dev.steward.app.approval;

import org.jspecify.annotations.NullMarked;
