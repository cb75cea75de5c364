/**
 * The code pack (SPEC §13): {@code code.run}, Python or Bash in a bubblewrap sandbox that sees
 * the system read-only and one workspace folder read-write, with no network, and limits on CPU,
 * memory, processes, file size, time and output.
 */
@NullMarked
package dev.steward.service.tools.code;

import org.jspecify.annotations.NullMarked;
