@NullMarked
package dev.steward.service.audit;

import org.jspecify.annotations.NullMarked;
