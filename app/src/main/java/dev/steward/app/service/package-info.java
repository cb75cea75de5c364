/** Finding, starting and watching the automation service, and the app's two connections to it. */
@NullMarked
package dev.steward.app.service;

import org.jspecify.annotations.NullMarked;
