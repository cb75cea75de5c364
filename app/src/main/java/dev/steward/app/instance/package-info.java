/** One window per Steward home: the first claims it, a second start hands over and exits. */
@NullMarked
package dev.steward.app.instance;

import org.jspecify.annotations.NullMarked;
