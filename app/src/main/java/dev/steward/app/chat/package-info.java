/** The chat: its view model (entries, cards, input, banner) and its view. */
@NullMarked
package dev.steward.app.chat;

import org.jspecify.annotations.NullMarked;
