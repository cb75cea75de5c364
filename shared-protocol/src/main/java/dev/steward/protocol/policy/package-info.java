@NullMarked
package dev.steward.protocol.policy;

import org.jspecify.annotations.NullMarked;
