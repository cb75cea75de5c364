@NullMarked
package dev.steward.protocol.tool;

import org.jspecify.annotations.NullMarked;
