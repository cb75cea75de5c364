/**
 * The web pack (SPEC §13): {@code web.fetch}, a page or an API's answer fetched under the host
 * scope, every hop checked and pinned to the address that was checked, HTML turned into readable
 * text; what it reads taints the conversation.
 */
@NullMarked
package dev.steward.service.tools.web;

import org.jspecify.annotations.NullMarked;
