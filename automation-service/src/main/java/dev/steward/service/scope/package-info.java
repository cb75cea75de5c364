@NullMarked
package dev.steward.service.scope;

import org.jspecify.annotations.NullMarked;
