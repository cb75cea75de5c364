@NullMarked
package dev.steward.service.tools.files;

import org.jspecify.annotations.NullMarked;
