@NullMarked
package dev.steward.service.tools.desktop;

import org.jspecify.annotations.NullMarked;
