@NullMarked
package dev.steward.protocol.util;

import org.jspecify.annotations.NullMarked;
