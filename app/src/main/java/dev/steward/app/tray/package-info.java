/** The tray icon, where the desktop has a tray. */
@NullMarked
package dev.steward.app.tray;

import org.jspecify.annotations.NullMarked;
