@NullMarked
package dev.steward.service.transport;

import org.jspecify.annotations.NullMarked;
