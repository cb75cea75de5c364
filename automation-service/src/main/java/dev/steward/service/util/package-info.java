/** Small helpers several parts of the service share. */
@NullMarked
package dev.steward.service.util;

import org.jspecify.annotations.NullMarked;
