/** Where Steward's folders are, for every process that needs to find them. */
@NullMarked
package dev.steward.protocol.home;

import org.jspecify.annotations.NullMarked;
