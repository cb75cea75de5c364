/**
 * Finding, starting and watching the automation service, and a client's connections to it: the
 * window's and the MCP bridge's.
 */
@NullMarked
package dev.steward.protocol.service;

import org.jspecify.annotations.NullMarked;
