/** The app's settings file and the environment variables that override it. */
@NullMarked
package dev.steward.app.config;

import org.jspecify.annotations.NullMarked;
