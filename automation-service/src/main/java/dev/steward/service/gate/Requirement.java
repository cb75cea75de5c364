package dev.steward.service.gate;

import java.util.List;

/** Whether a call needs a confirm token, and every reason it does (for the dialog and the log). */
record Requirement(boolean needsToken, List<String> reasons, List<String> waivedBy) {}
