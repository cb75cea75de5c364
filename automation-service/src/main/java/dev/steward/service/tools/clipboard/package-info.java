@NullMarked
package dev.steward.service.tools.clipboard;

import org.jspecify.annotations.NullMarked;
