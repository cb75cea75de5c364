@NullMarked
package dev.steward.service.tools.browser;

import org.jspecify.annotations.NullMarked;
