/** The global hotkey that shows or hides the window. */
@NullMarked
package dev.steward.app.hotkey;

import org.jspecify.annotations.NullMarked;
