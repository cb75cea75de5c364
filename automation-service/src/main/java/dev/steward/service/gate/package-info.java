@NullMarked
package dev.steward.service.gate;

import org.jspecify.annotations.NullMarked;
