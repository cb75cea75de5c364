@NullMarked
package dev.steward.protocol.audit;

import org.jspecify.annotations.NullMarked;
