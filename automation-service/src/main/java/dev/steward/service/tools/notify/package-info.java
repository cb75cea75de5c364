@NullMarked
package dev.steward.service.tools.notify;

import org.jspecify.annotations.NullMarked;
