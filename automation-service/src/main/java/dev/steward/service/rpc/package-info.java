@NullMarked
package dev.steward.service.rpc;

import org.jspecify.annotations.NullMarked;
