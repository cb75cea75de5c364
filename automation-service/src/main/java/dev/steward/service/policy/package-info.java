@NullMarked
package dev.steward.service.policy;

import org.jspecify.annotations.NullMarked;
