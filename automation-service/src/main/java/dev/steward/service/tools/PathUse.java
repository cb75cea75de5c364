package dev.steward.service.tools;

import dev.steward.service.scope.Access;

/** A path argument of a call: where it is in the arguments (a JSON pointer), its text, its access. */
public record PathUse(String pointer, String path, Access access) {}
