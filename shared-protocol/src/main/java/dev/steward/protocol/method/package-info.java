@NullMarked
package dev.steward.protocol.method;

import org.jspecify.annotations.NullMarked;
