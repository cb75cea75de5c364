/** Settings: the model, the scopes and grants (the service's policy), theme. */
@NullMarked
package dev.steward.app.settings;

import org.jspecify.annotations.NullMarked;
