@NullMarked
package dev.steward.service.undo;

import org.jspecify.annotations.NullMarked;
