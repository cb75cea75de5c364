/** Chat history: conversations saved in an H2 database of the app's own. */
@NullMarked
package dev.steward.app.history;

import org.jspecify.annotations.NullMarked;
