@NullMarked
package dev.steward.protocol.client;

import org.jspecify.annotations.NullMarked;
