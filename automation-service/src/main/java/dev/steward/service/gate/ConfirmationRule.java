package dev.steward.service.gate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.tool.Confirmation;
import dev.steward.protocol.tool.Risk;
import dev.steward.service.policy.Policy;
import dev.steward.service.scope.ResolvedPath;
import dev.steward.service.tools.Tool;
import dev.steward.service.undo.UndoStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Step 3, SPEC §2's confirmation rule in one place. A call needs a token when it is high risk, its
 * tool (or the user's override) always confirms, it is destructive under {@code if_destructive},
 * it touches a folder the user marked "confirm everything", or it opens a host not on the user's
 * list. A standing grant waives the tool's
 * own rule for low and medium tools — never high risk, never the user's folder rule, never in
 * a conversation that has taken in untrusted content, and never for a change whose undo data would
 * push out a recent call's. In such a conversation every mutating call
 * needs a click, and so does every call that can send data off the machine (SPEC §10's trifecta
 * rule) — unless all it sends goes to hosts on the user's list.
 */
final class ConfirmationRule {

  private ConfirmationRule() {}

  /** Why a call that a grant would let run asks all the same. */
  static final String PUSHES_OUT_RECENT_UNDO =
      "keeping what it replaces for undo would push out the undo data of calls made in the last "
          + UndoStore.KEPT_AT_LEAST.toDays()
          + " days";

  static Requirement evaluate(
      Tool tool,
      Risk risk,
      JsonNode args,
      Collection<ResolvedPath> paths,
      List<String> hostsToConfirm,
      boolean destructive,
      List<String> taint,
      Policy policy,
      Instant now,
      java.util.function.BooleanSupplier pushesOutRecentUndo) {
    PolicyDocument doc = policy.document();
    PolicyDocument.ToolOverride override = doc.overrides().get(tool.name());
    Confirmation confirmation = override != null && override.confirmation() != null
        ? stricter(override.confirmation(), tool.definition().confirmation())
        : tool.definition().confirmation();

    List<String> fixed = new ArrayList<>();
    List<String> waivable = new ArrayList<>();
    if (risk == Risk.HIGH) fixed.add("it is a high-risk action");
    if (confirmation == Confirmation.ALWAYS) waivable.add("this tool always asks first");
    if (confirmation == Confirmation.IF_DESTRUCTIVE && destructive)
      waivable.add("it changes or overwrites existing data");
    for (String folder : doc.confirmUnder()) {
      if (paths.stream().anyMatch(p -> policy.scope().isUnder(p.real(), folder))) {
        fixed.add("your policy confirms everything under " + folder);
      }
    }
    for (String host : hostsToConfirm) fixed.add(host + " is not on your list of allowed hosts");
    // Changing such a place is a consequential act however new the file.
    for (ResolvedPath p : paths) {
      String place = p.runsLater();
      if (place == null) continue;
      String why = "it changes " + place + ", whose files run as programs later";
      if (!fixed.contains(why)) fixed.add(why);
    }
    if (!taint.isEmpty()) {
      String from =
          "this conversation took in untrusted content (" + String.join(", ", taint) + ")";
      if (tool.mutates(args)) {
        fixed.add(from);
      } else if (tool.sends(args)
          && !(hostsToConfirm.isEmpty() && !tool.hosts(args).isEmpty())) {
        fixed.add(from + " and this call can send data off the machine");
      }
    }
    List<String> waivedBy = new ArrayList<>();
    if (!waivable.isEmpty() && risk != Risk.HIGH && tool.boundByItsFolders()) {
      for (PolicyDocument.StandingGrant g : doc.grants()) {
        if (matches(g, tool, paths, policy, now)) {
          waivedBy.add(g.id());
          break;
        }
      }
    }
    List<String> reasons = new ArrayList<>(fixed);
    // The undo area's cap pushes the oldest calls' data out; a grant is no click to push out a
    // recent one's (a large overwrite that would take the undo of yesterday's delete).
    if (!waivedBy.isEmpty() && destructive && pushesOutRecentUndo.getAsBoolean()) {
      waivedBy.clear();
      reasons.add(PUSHES_OUT_RECENT_UNDO);
    }
    if (waivedBy.isEmpty()) reasons.addAll(waivable);
    return new Requirement(!reasons.isEmpty(), reasons, waivedBy);
  }

  /** An override may make a tool stricter, never looser than its definition. */
  private static Confirmation stricter(Confirmation a, Confirmation b) {
    return a.ordinal() >= b.ordinal() ? a : b;
  }

  private static boolean matches(
      PolicyDocument.StandingGrant g,
      Tool tool,
      Collection<ResolvedPath> paths,
      Policy policy,
      Instant now) {
    if (!g.tool().equals(tool.name())) return false;
    if (g.expiresAt() != null && !now.isBefore(g.expiresAt())) return false;
    if (paths.isEmpty()) return g.paths().isEmpty();
    if (g.paths().isEmpty()) return false;
    return paths.stream()
        .allMatch(p ->
            g.paths().stream().anyMatch(folder -> policy.scope().isUnder(p.real(), folder)));
  }
}
