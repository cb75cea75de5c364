@NullMarked
package dev.steward.protocol.json;

import org.jspecify.annotations.NullMarked;
