@NullMarked
package dev.steward.protocol.jsonrpc;

import org.jspecify.annotations.NullMarked;
