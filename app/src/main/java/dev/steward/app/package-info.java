/** The Steward window: chat, approvals, and the link to the automation service. */
@NullMarked
package dev.steward.app;

import org.jspecify.annotations.NullMarked;
