@NullMarked
package dev.steward.service.tools.apps;

import org.jspecify.annotations.NullMarked;
