/** Markdown rendered as JavaFX nodes, for the assistant's replies. */
@NullMarked
package dev.steward.app.markdown;

import org.jspecify.annotations.NullMarked;
