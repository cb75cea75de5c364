@NullMarked
package dev.steward.service.token;

import org.jspecify.annotations.NullMarked;
