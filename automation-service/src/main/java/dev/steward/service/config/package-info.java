@NullMarked
package dev.steward.service.config;

import org.jspecify.annotations.NullMarked;
