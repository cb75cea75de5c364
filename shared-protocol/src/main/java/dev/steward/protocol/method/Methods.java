package dev.steward.protocol.method;

/** Every JSON-RPC method name of the protocol (SPEC §3), in one place. */
public final class Methods {

  public static final String SESSION_HELLO = "session.hello";
  public static final String TOOLS_LIST = "tools.list";
  public static final String TOOL_PREFLIGHT = "tool.preflight";
  public static final String CONFIRM_GRANT = "confirm.grant";
  public static final String CONFIRM_REVOKE = "confirm.revoke";
  /** ui role: the user declined calls in the dialog (or an approval request): each gets a {@code denied} row. */
  public static final String APPROVAL_DENY = "approval.deny";
  /** Notification, service → ui: a client that cannot click (MCP) waits for the user. */
  public static final String APPROVAL_REQUESTED = "approval.requested";
  /**
   * Notification, service → ui (beyond SPEC §3.1): a request that waited ended without the
   * window's answer (the client cancelled the call or went away, or it ran out): its dialog closes.
   */
  public static final String APPROVAL_WITHDRAWN = "approval.withdrawn";

  public static final String TOOL_EXECUTE = "tool.execute";
  public static final String TOOL_CANCEL = "tool.cancel";
  public static final String TOOL_UNDO = "tool.undo";
  public static final String AUDIT_QUERY = "audit.query";
  public static final String AUDIT_VERIFY = "audit.verify";
  /**
   * The whole arguments of a row whose preview was cut (ui role): {@code {sha256}} → {@code
   * {sha256, args}}, the hash the row's preview ends with ({@link
   * dev.steward.protocol.audit.WholeArgs}).
   */
  public static final String AUDIT_ARGS = "audit.args";

  public static final String POLICY_GET = "policy.get";
  public static final String POLICY_UPDATE = "policy.update";
  /**
   * Sets or removes one of the packs' secrets in {@code config/secrets.json} (ui role): {@code
   * {section, key, value}} → {@code {section, key, set}}; a value is never returned or logged.
   */
  public static final String SECRETS_SET = "secrets.set";

  /** The settings sections the tool packs declare (ui role): {@code {}} → {@link PackSettings.Result}. */
  public static final String PACKS_SETTINGS = "packs.settings";

  /** Notification: progress of a long call. */
  public static final String TOOL_PROGRESS = "tool.progress";

  /** Notification to ui connections: a finished call with its audit metadata. */
  public static final String TOOL_RESULTS = "tool.results";

  /**
   * Notification to the window and to MCP bridges: the tools on offer, or what the user is asked
   * to review of them, changed (an MCP server started, stopped or described a tool anew). Params:
   * {@code {}}.
   */
  public static final String TOOLS_CHANGED = "tools.changed";

  /** A method that answers its params unchanged; only for measuring transport overhead. */
  public static final String DEBUG_ECHO = "debug.echo";

  private Methods() {}
}
