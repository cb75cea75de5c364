@NullMarked
package dev.steward.service;

import org.jspecify.annotations.NullMarked;
