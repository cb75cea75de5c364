package dev.steward.protocol.policy;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.tool.Confirmation;
import dev.steward.protocol.tool.Risk;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The content of {@code config/policy.json} (SPEC §9), which is also what {@code policy.get} returns
 * and {@code policy.update} takes. Read with the strict mapper: an unknown key is an error that
 * names it, so a typo never widens or silently drops a scope.
 */
public record PolicyDocument(
    List<PathRoot> paths,
    List<AppEntry> apps,
    Hosts hosts,
    List<StandingGrant> grants,
    Map<String, ToolOverride> overrides,
    List<String> confirmUnder,
    Browser browser,
    Map<String, McpServer> mcpServers,
    Household household,
    WebSearch webSearch,
    Code code,
    Calendar calendar,
    Mail mail,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, JsonNode> packs) {

  public PolicyDocument {
    browser = Objects.requireNonNullElse(browser, Browser.DEFAULT);
    household = Objects.requireNonNullElse(household, Household.DEFAULT);
    webSearch = Objects.requireNonNullElse(webSearch, WebSearch.NONE);
    code = Objects.requireNonNullElse(code, Code.DEFAULT);
    calendar = Objects.requireNonNullElse(calendar, Calendar.NONE);
    mail = Objects.requireNonNullElse(mail, Mail.NONE);
    paths = List.copyOf(Objects.requireNonNullElse(paths, List.of()));
    apps = List.copyOf(Objects.requireNonNullElse(apps, List.of()));
    hosts = Objects.requireNonNullElse(hosts, new Hosts(List.of(), false));
    grants = List.copyOf(Objects.requireNonNullElse(grants, List.of()));
    overrides = Map.copyOf(Objects.requireNonNullElse(overrides, Map.of()));
    confirmUnder = List.copyOf(Objects.requireNonNullElse(confirmUnder, List.of()));
    // Kept in the order the user wrote them: Settings lists servers as they appear in the file.
    mcpServers = java.util.Collections.unmodifiableMap(
        new java.util.LinkedHashMap<>(Objects.requireNonNullElse(mcpServers, Map.of())));
    // Copied: JSON nodes can be changed, and the policy in force is shared by every pack.
    Map<String, JsonNode> copies = new java.util.LinkedHashMap<>();
    Objects.requireNonNullElse(packs, Map.<String, JsonNode>of())
        .forEach((name, values) -> copies.put(name, values.deepCopy()));
    packs = java.util.Collections.unmodifiableMap(copies);
  }

  /** A copy of the settings kept under {@code packs.<pack>}, or an empty object. */
  public JsonNode packSettings(String pack) {
    JsonNode values = packs.get(pack);
    return values == null
        ? com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode()
        : values.deepCopy();
  }

  /** A policy whose household pack keeps its data on this machine. */
  public PolicyDocument(
      List<PathRoot> paths,
      List<AppEntry> apps,
      Hosts hosts,
      List<StandingGrant> grants,
      Map<String, ToolOverride> overrides,
      List<String> confirmUnder,
      Browser browser,
      Map<String, McpServer> mcpServers) {
    this(
        paths,
        apps,
        hosts,
        grants,
        overrides,
        confirmUnder,
        browser,
        mcpServers,
        Household.DEFAULT,
        WebSearch.NONE,
        Code.DEFAULT,
        Calendar.NONE,
        Mail.NONE,
        Map.of());
  }

  /** A policy without browser settings of its own (the browser keeps no profile). */
  public PolicyDocument(
      List<PathRoot> paths,
      List<AppEntry> apps,
      Hosts hosts,
      List<StandingGrant> grants,
      Map<String, ToolOverride> overrides,
      List<String> confirmUnder) {
    this(paths, apps, hosts, grants, overrides, confirmUnder, Browser.DEFAULT, Map.of());
  }

  /** SPEC §5's defaults: a read-write workspace, read-only Documents and Downloads. */
  public static PolicyDocument defaults() {
    return new PolicyDocument(
        List.of(
            new PathRoot("~/Steward", PathRoot.READ_WRITE),
            new PathRoot("~/Documents", PathRoot.READ),
            new PathRoot("~/Downloads", PathRoot.READ)),
        List.of(),
        new Hosts(List.of("en.wikipedia.org"), false),
        List.of(),
        Map.of(),
        List.of());
  }

  // Changes go through these, so that no setting is dropped by a constructor call written
  // before it existed.

  public PolicyDocument withGrants(List<StandingGrant> newGrants) {
    return new PolicyDocument(
        paths,
        apps,
        hosts,
        newGrants,
        overrides,
        confirmUnder,
        browser,
        mcpServers,
        household,
        webSearch,
        code,
        calendar,
        mail,
        packs);
  }

  public PolicyDocument withPaths(List<PathRoot> newPaths) {
    return new PolicyDocument(
        newPaths,
        apps,
        hosts,
        grants,
        overrides,
        confirmUnder,
        browser,
        mcpServers,
        household,
        webSearch,
        code,
        calendar,
        mail,
        packs);
  }

  public PolicyDocument withApps(List<AppEntry> newApps) {
    return new PolicyDocument(
        paths,
        newApps,
        hosts,
        grants,
        overrides,
        confirmUnder,
        browser,
        mcpServers,
        household,
        webSearch,
        code,
        calendar,
        mail,
        packs);
  }

  public PolicyDocument withHosts(Hosts newHosts) {
    return new PolicyDocument(
        paths,
        apps,
        newHosts,
        grants,
        overrides,
        confirmUnder,
        browser,
        mcpServers,
        household,
        webSearch,
        code,
        calendar,
        mail,
        packs);
  }

  public PolicyDocument withBrowser(Browser newBrowser) {
    return new PolicyDocument(
        paths,
        apps,
        hosts,
        grants,
        overrides,
        confirmUnder,
        newBrowser,
        mcpServers,
        household,
        webSearch,
        code,
        calendar,
        mail,
        packs);
  }

  public PolicyDocument withOverrides(Map<String, ToolOverride> newOverrides) {
    return new PolicyDocument(
        paths,
        apps,
        hosts,
        grants,
        newOverrides,
        confirmUnder,
        browser,
        mcpServers,
        household,
        webSearch,
        code,
        calendar,
        mail,
        packs);
  }

  public PolicyDocument withHousehold(Household newHousehold) {
    return new PolicyDocument(
        paths,
        apps,
        hosts,
        grants,
        overrides,
        confirmUnder,
        browser,
        mcpServers,
        newHousehold,
        webSearch,
        code,
        calendar,
        mail,
        packs);
  }

  public PolicyDocument withWebSearch(WebSearch newWebSearch) {
    return new PolicyDocument(
        paths,
        apps,
        hosts,
        grants,
        overrides,
        confirmUnder,
        browser,
        mcpServers,
        household,
        newWebSearch,
        code,
        calendar,
        mail,
        packs);
  }

  public PolicyDocument withCode(Code newCode) {
    return new PolicyDocument(
        paths,
        apps,
        hosts,
        grants,
        overrides,
        confirmUnder,
        browser,
        mcpServers,
        household,
        webSearch,
        newCode,
        calendar,
        mail,
        packs);
  }

  public PolicyDocument withCalendar(Calendar newCalendar) {
    return new PolicyDocument(
        paths,
        apps,
        hosts,
        grants,
        overrides,
        confirmUnder,
        browser,
        mcpServers,
        household,
        webSearch,
        code,
        newCalendar,
        mail,
        packs);
  }

  public PolicyDocument withMail(Mail newMail) {
    return new PolicyDocument(
        paths,
        apps,
        hosts,
        grants,
        overrides,
        confirmUnder,
        browser,
        mcpServers,
        household,
        webSearch,
        code,
        calendar,
        newMail,
        packs);
  }

  /**
   * The settings of packs that keep them under {@code packs.<name>} (a pack's declared settings
   * section, {@code packs.settings}), each an object the service checks against its declaration.
   */
  public PolicyDocument withPacks(Map<String, JsonNode> newPacks) {
    return new PolicyDocument(
        paths,
        apps,
        hosts,
        grants,
        overrides,
        confirmUnder,
        browser,
        mcpServers,
        household,
        webSearch,
        code,
        calendar,
        mail,
        newPacks);
  }

  public PolicyDocument withMcpServers(Map<String, McpServer> newServers) {
    return new PolicyDocument(
        paths,
        apps,
        hosts,
        grants,
        overrides,
        confirmUnder,
        browser,
        newServers,
        household,
        webSearch,
        code,
        calendar,
        mail,
        packs);
  }

  /**
   * How {@code browser.open_url} treats cookies and site data. Off (the default), every visit
   * starts with none and leaves none. On, visits share one profile kept in Steward's data folder,
   * so sign-ins last; turning it off again deletes that profile.
   */
  public record Browser(boolean keepProfile) {
    public static final Browser DEFAULT = new Browser(false);
  }

  /**
   * {@code code.run} (SPEC §13): off until the user turns it on; no network unless {@code
   * network}; what runs sees only {@code workspace} of the home folder, read-write; a run's memory
   * (its address space, in MB) and the largest file it may write (MB) are the user's to set.
   */
  public record Code(
      boolean enabled,
      boolean network,
      String workspace,
      @Nullable Integer memoryMb,
      @Nullable Integer fileMb) {
    public static final int MEMORY_MB = 1024;
    public static final int MEMORY_MB_MIN = 256;
    public static final int FILE_MB = 64;
    public static final int LIMIT_MB_MAX = 65536;
    public static final Code DEFAULT = new Code(false, false, "~/Steward");

    public Code {
      workspace = Objects.requireNonNullElse(workspace, "~/Steward");
      if (workspace.isBlank()) throw new IllegalArgumentException("code.workspace is a folder");
      if (memoryMb != null && (memoryMb < MEMORY_MB_MIN || memoryMb > LIMIT_MB_MAX))
        throw new IllegalArgumentException(
            "code.memory_mb is from " + MEMORY_MB_MIN + " to " + LIMIT_MB_MAX);
      if (fileMb != null && (fileMb < 1 || fileMb > LIMIT_MB_MAX))
        throw new IllegalArgumentException("code.file_mb is from 1 to " + LIMIT_MB_MAX);
    }

    public Code(boolean enabled, boolean network, String workspace) {
      this(enabled, network, workspace, null, null);
    }

    /** The memory a run may use, in MB: the user's setting or {@link #MEMORY_MB}. */
    public int memory() {
      return memoryMb == null ? MEMORY_MB : memoryMb;
    }

    /** The largest file a run may write, in MB: the user's setting or {@link #FILE_MB}. */
    public int fileSize() {
      return fileMb == null ? FILE_MB : fileMb;
    }
  }

  /**
   * Where {@code web.search} sends its query (SPEC §13): {@code provider} is {@code searxng} (the
   * user's own instance, {@code url} required), {@code tavily} or {@code brave} (their public APIs
   * unless {@code url} names another base, e.g. a test server); none configured, the tool is
   * unavailable. Keys are in {@code config/secrets.json} under {@code web_search.api_key}.
   */
  public record WebSearch(
      @Nullable String provider, @Nullable String url) {
    public static final WebSearch NONE = new WebSearch(null, null);
    public static final java.util.List<String> PROVIDERS =
        java.util.List.of("searxng", "tavily", "brave");

    public WebSearch {
      if (provider != null && !PROVIDERS.contains(provider)) {
        throw new IllegalArgumentException("web_search.provider is one of "
            + String.join(", ", PROVIDERS) + ", not \"" + provider + "\"");
      }
      if (url != null && !url.startsWith("http://") && !url.startsWith("https://")) {
        throw new IllegalArgumentException("web_search.url is an http(s) URL");
      }
      if ("searxng".equals(provider) && url == null) {
        throw new IllegalArgumentException(
            "web_search.url is needed for searxng: the address of your instance");
      }
    }
  }

  /**
   * The one calendar the calendar pack works on (SPEC §13, seed 000): its CalDAV collection's URL,
   * null until the user sets one up. The user name and app password are in {@code
   * config/secrets.json} under {@code calendar}; nothing else of the account is ever read.
   */
  public record Calendar(@Nullable String url) {
    public static final Calendar NONE = new Calendar(null);

    public Calendar {
      if (url != null) {
        if (!url.startsWith("http://") && !url.startsWith("https://")) {
          throw new IllegalArgumentException(
              "calendar.url is the calendar's http(s) CalDAV address");
        }
        if (url.contains("@")) {
          throw new IllegalArgumentException(
              "calendar.url names no user: the user name and password go in config/secrets.json");
        }
        if (url.startsWith("http://") && !dev.steward.protocol.util.Loopback.url(url)) {
          throw new IllegalArgumentException(
              "calendar.url is https://: over http:// the password would travel in clear text"
                  + " (only a server on this machine may use http://)");
        }
        if (!url.endsWith("/")) url = url + "/";
      }
    }
  }

  /**
   * The dedicated mailbox the mail pack reads (mail the user forwards to it) and sends from (SPEC
   * §13, seeds 000 and 002): null servers until the user sets one up; {@code notify_new_mail} (optional, off) shows a
   * desktop notification for each new mail. The user name and password are in {@code
   * config/secrets.json} under {@code mail}.
   */
  public record Mail(
      @Nullable String address,
      @Nullable Server imap,
      @Nullable Server smtp,
      @Nullable Boolean notifyNewMail) {
    public static final Mail NONE = new Mail(null, null, null, false);

    public Mail {
      // Optional in the file: no notifications unless asked for.
      notifyNewMail = Boolean.TRUE.equals(notifyNewMail);
      if (address != null && (address.indexOf('@') < 1 || address.endsWith("@"))) {
        throw new IllegalArgumentException("mail.address is an e-mail address: " + address);
      }
    }

    /** An IMAP or SMTP server; {@code tls} is TLS from the first byte (993, 465), never plain text upgraded. */
    public record Server(String host, int port, boolean tls) {
      public Server {
        if (host == null || host.isBlank() || host.contains("/") || host.contains("@")) {
          throw new IllegalArgumentException("a mail server's host is a host name: " + host);
        }
        if (port < 1 || port > 65535) {
          throw new IllegalArgumentException("a mail server's port is 1–65535, not " + port);
        }
      }
    }
  }

  /**
   * Where the household pack keeps recipes, meals and lists (SPEC §13): {@code db_url} null for an
   * H2 database in the data folder, or a {@code jdbc:postgresql://} URL for one a household shares
   * across machines (its user name and password are in {@code config/secrets.json}).
   */
  public record Household(@Nullable String dbUrl) {
    public static final Household DEFAULT = new Household(null);

    /**
     * Parameters a URL may carry: none that holds a credential (those are in secrets.json) or
     * names a class for the driver to load.
     */
    private static final java.util.Set<String> URL_PARAMETERS = java.util.Set.of(
        "sslmode",
        "sslrootcert",
        "connectTimeout",
        "socketTimeout",
        "loginTimeout",
        "ApplicationName",
        "targetServerType",
        "tcpKeepAlive",
        "currentSchema");

    public Household {
      if (dbUrl != null) {
        if (!dbUrl.startsWith("jdbc:postgresql://")) {
          throw new IllegalArgumentException(
              "household.db_url is a jdbc:postgresql:// URL, or null for the database on this machine");
        }
        int q = dbUrl.indexOf('?');
        if (dbUrl.substring(0, q < 0 ? dbUrl.length() : q).contains("@")) {
          throw new IllegalArgumentException(
              "household.db_url names no user: the user name and password go in config/secrets.json");
        }
        if (q >= 0) {
          for (String pair : dbUrl.substring(q + 1).split("&")) {
            String name = pair.split("=", 2)[0];
            if (!URL_PARAMETERS.contains(name)) {
              throw new IllegalArgumentException("household.db_url may not carry \"" + name
                  + "\" (user names and passwords go in" + " config/secrets.json); it may carry "
                  + String.join(", ", new java.util.TreeSet<>(URL_PARAMETERS)));
            }
          }
        }
      }
    }
  }

  /** A folder the tools may touch. {@code access} is {@code read} or {@code read_write}. */
  public record PathRoot(String root, String access) {
    public static final String READ = "read";
    public static final String READ_WRITE = "read_write";

    public PathRoot {
      Objects.requireNonNull(root, "root");
      Objects.requireNonNull(access, "access");
      if (!READ.equals(access) && !READ_WRITE.equals(access)) {
        throw new IllegalArgumentException(
            "access is \"read\" or \"read_write\", not \"" + access + "\"");
      }
    }

    public boolean writable() {
      return READ_WRITE.equals(access);
    }
  }

  /** An app {@code apps.open} may start; {@code {target}} in the command is the one argument. */
  public record AppEntry(String id, List<String> command) {
    public AppEntry {
      Objects.requireNonNull(id, "id");
      command = List.copyOf(Objects.requireNonNull(command, "command"));
      if (command.isEmpty()) {
        throw new IllegalArgumentException("app \"" + id + "\" has an empty command");
      }
    }
  }

  public record Hosts(List<String> allow, boolean allowPrivate) {
    public Hosts {
      allow = List.copyOf(Objects.requireNonNullElse(allow, List.of()));
    }
  }

  /**
   * "Always allow {@code tool} under {@code paths}": matching calls of low and medium tools run
   * without a token (never high ones, never in a tainted trace).
   */
  public record StandingGrant(
      String id,
      String tool,
      List<String> paths,
      @Nullable Instant expiresAt,
      @Nullable Instant createdAt) {
    public StandingGrant {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(tool, "tool");
      paths = List.copyOf(Objects.requireNonNullElse(paths, List.of()));
    }
  }

  /**
   * The user's word on one tool. For Steward's own tools {@code confirmation} and {@code risk} only
   * tighten what the tool declares; for an external MCP server's tool, whose declaration is only a
   * hint from that server, they are the user's rating and replace it. {@code disabled} takes a
   * tool off the list and refuses its calls.
   */
  public record ToolOverride(
      @Nullable Confirmation confirmation,
      @Nullable Risk risk,
      @Nullable Boolean disabled) {

    public ToolOverride(@Nullable Confirmation confirmation) {
      this(confirmation, null, null);
    }

    public boolean off() {
      return Boolean.TRUE.equals(disabled);
    }
  }

  /**
   * An external MCP server (SPEC §12), in the shape of Claude Desktop's {@code mcpServers} so a
   * user can paste theirs: a command the service starts (never through a shell) with {@code args}
   * and {@code env}, or the {@code url} of a Streamable HTTP server with the {@code headers} it
   * is sent (VS Code's, Cursor's and Claude Code's shape: an API key, most often).
   */
  public record McpServer(
      @Nullable String command,
      List<String> args,
      Map<String, String> env,
      @Nullable String url,
      Map<String, String> headers) {

    /** Headers that say how a request travels or that MCP itself sets: never the user's. */
    private static final java.util.Set<String> RESERVED = java.util.Set.of(
        "host",
        "connection",
        "content-length",
        "content-type",
        "transfer-encoding",
        "upgrade",
        "expect",
        "te",
        "trailer",
        "keep-alive",
        "proxy-connection",
        "accept",
        "mcp-session-id",
        "mcp-protocol-version",
        "last-event-id");

    public McpServer {
      args = List.copyOf(Objects.requireNonNullElse(args, List.of()));
      env = Objects.requireNonNullElse(env, Map.<String, String>of());
      // (Immutable maps refuse a null lookup: each entry is looked at instead.)
      if (env.entrySet().stream().anyMatch(e -> e.getKey() == null || e.getValue() == null)) {
        throw new IllegalArgumentException("a name or value in \"env\" is not text");
      }
      // Checked here so that a paste and a value set alone meet the same rule, before a process
      // is started with them (whose own refusal would quote the name and value).
      for (Map.Entry<String, String> e : env.entrySet()) {
        String name = e.getKey();
        if (name.isEmpty()
            || name.length() > 256
            || name.indexOf('=') >= 0
            || name.indexOf('\0') >= 0) {
          throw new IllegalArgumentException(
              "a name in \"env\" is not a variable's name (1 to 256 characters, no \"=\")");
        }
        if (e.getValue().indexOf('\0') >= 0) {
          throw new IllegalArgumentException("a value in \"env\" holds a NUL character");
        }
      }
      env = Map.copyOf(env);
      // Names and values are checked before they are copied, and quoted only when they are one of
      // the reserved names: a pasted token may stand where a name should (an error is shown and
      // may be logged).
      headers = Objects.requireNonNullElse(headers, Map.<String, String>of());
      java.util.Set<String> seen = new java.util.HashSet<>();
      for (Map.Entry<String, String> h : headers.entrySet()) {
        String name = h.getKey();
        if (name == null || !name.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}")) {
          throw new IllegalArgumentException(
              "a name in \"headers\" is not a header name (letters, digits and !#$%&'*+.^_`|~-)");
        }
        if (RESERVED.contains(name.toLowerCase(java.util.Locale.ROOT))) {
          throw new IllegalArgumentException("the header \""
              + name.toLowerCase(java.util.Locale.ROOT)
              + "\" is set by Steward itself, not by the entry");
        }
        if (!seen.add(name.toLowerCase(java.util.Locale.ROOT))) {
          throw new IllegalArgumentException(
              "\"headers\" names one header twice (header names are the same in any case)");
        }
        String value = h.getValue();
        if (value == null
            || value.length() > 8192
            || !value.chars().allMatch(c -> c == '\t' || (c >= 0x20 && c < 0x7f))) {
          throw new IllegalArgumentException("a value in \"headers\" cannot be sent (text of"
              + " visible ASCII only, at most 8192 characters)");
        }
      }
      headers = Map.copyOf(headers);
      if ((command == null) == (url == null)) {
        throw new IllegalArgumentException(
            "an MCP server has either a \"command\" (with \"args\" and \"env\") or a \"url\"");
      }
      if (command != null && command.isBlank()) {
        throw new IllegalArgumentException("an MCP server's \"command\" is empty");
      }
      if (url != null && (!args.isEmpty() || !env.isEmpty())) {
        throw new IllegalArgumentException(
            "an MCP server at a \"url\" takes no \"args\" or \"env\" (its keys go in \"headers\")");
      }
      if (command != null && !headers.isEmpty()) {
        throw new IllegalArgumentException(
            "an MCP server started by a \"command\" takes no \"headers\" (its keys go in \"env\")");
      }
    }

    public static McpServer command(String command, List<String> args, Map<String, String> env) {
      return new McpServer(command, args, env, null, Map.of());
    }

    public static McpServer url(String url) {
      return new McpServer(null, List.of(), Map.of(), url, Map.of());
    }

    public static McpServer url(String url, Map<String, String> headers) {
      return new McpServer(null, List.of(), Map.of(), url, headers);
    }

    /** The same server without the values its entry keeps in secrets.json. */
    public McpServer withoutSecrets() {
      return new McpServer(command, args, Map.of(), url, Map.of());
    }

    /**
     * Variables that decide which program starts or what it loads: a command looked up on {@code
     * PATH}, {@code NODE_OPTIONS=--require …}, {@code LD_PRELOAD}, a package registry. Matched in
     * any case (Windows reads names so, and a false alarm only asks once more).
     */
    private static final java.util.Set<String> LOADER_NAMES = java.util.Set.of(
        "PATH",
        "NODE_OPTIONS",
        "NODE_PATH",
        "JAVA_TOOL_OPTIONS",
        "_JAVA_OPTIONS",
        "JDK_JAVA_OPTIONS",
        "PERL5LIB",
        "PERL5OPT",
        "RUBYOPT",
        "RUBYLIB",
        "BASH_ENV",
        "ENV",
        "HOME");

    private static final List<String> LOADER_PREFIXES =
        List.of("LD_", "DYLD_", "PYTHON", "NPM_CONFIG_", "PIP_", "UV_");

    /**
     * Whether an environment variable decides which program starts or what it loads: an entry
     * whose value of one differs runs another program, however alike its command.
     */
    public static boolean steersLoading(String name) {
      String n = name.toUpperCase(java.util.Locale.ROOT);
      return LOADER_NAMES.contains(n) || LOADER_PREFIXES.stream().anyMatch(n::startsWith);
    }
  }
}
