@NullMarked
package dev.steward.service.tools;

import org.jspecify.annotations.NullMarked;
