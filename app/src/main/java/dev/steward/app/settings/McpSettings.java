package dev.steward.app.settings;

import dev.steward.protocol.method.Mcp;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.tool.Confirmation;
import dev.steward.protocol.tool.McpToolNames;
import dev.steward.protocol.tool.Risk;
import dev.steward.protocol.util.ShownText;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.jspecify.annotations.Nullable;

/**
 * Settings, "MCP servers": the servers of the policy's {@code mcp_servers} — added by pasting
 * another client's block or by typing a command, removed — each with its state, the end of its
 * log and its tools, which the user accepts (what they say they do is pinned) and rates.
 */
public final class McpSettings {

  /** The user's word on one tool: as its server's hints say, or overridden. */
  public enum Rating {
    HINTS("As the server marks it"),
    UNASKED("Runs without asking"),
    ASKS("Asks first"),
    OFF("Off");

    private final String label;

    Rating(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  private final PolicyEditor policy;
  private final McpReviews reviews;
  private final Executor background;
  private final Executor ui;
  private final ObservableList<Mcp.Server> servers = FXCollections.observableArrayList();
  private final StringProperty pasted = new SimpleStringProperty("");
  private final StringProperty newName = new SimpleStringProperty("");
  private final StringProperty newCommand = new SimpleStringProperty("");
  private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper("");
  private final javafx.beans.property.ReadOnlyObjectWrapper<@Nullable Replacing> replacing =
      new javafx.beans.property.ReadOnlyObjectWrapper<>();
  private PolicyDocument shown = PolicyDocument.defaults();
  private volatile @Nullable McpSource source;
  /** A refresh is running or asked for; a burst of changes costs one or two reads. */
  private boolean refreshing;

  private boolean again;
  private java.util.function.Consumer<String> heldBack = text -> {};
  private java.util.function.Consumer<String> browser = url -> {};
  private final ReadOnlyStringWrapper signingIn = new ReadOnlyStringWrapper("");
  private final Map<String, StringProperty> drafts = new HashMap<>();
  private final Map<String, javafx.beans.property.BooleanProperty> shownValues = new HashMap<>();
  /**
   * The changed tools already told of, by Steward's name, until the user accepts them again: a
   * server that describes a tool anew at every listing gets one notice, not one a listing.
   */
  private final java.util.Set<String> told = new java.util.HashSet<>();

  McpSettings(PolicyEditor policy, Executor background, Executor ui) {
    this(policy, background, ui, java.time.Clock.systemUTC());
  }

  McpSettings(PolicyEditor policy, Executor background, Executor ui, java.time.Clock clock) {
    this.reviews = new McpReviews(clock);
    this.policy = policy;
    this.background = background;
    this.ui = ui;
    policy.onShow(doc -> {
      shown = doc;
      refresh();
    });
  }

  void attach(McpSource source) {
    this.source = source;
    ui.execute(this::refresh);
  }

  /** Reads the servers' state again (the service says when it changed). Call on the UI thread. */
  public void refresh() {
    McpSource s = source;
    if (s == null) return;
    if (refreshing) {
      again = true;
      return;
    }
    refreshing = true;
    background.execute(() -> {
      Mcp.ServersResult result;
      try {
        result = s.servers();
      } catch (RuntimeException e) {
        ui.execute(() -> {
          error.set("Could not read the MCP servers: " + e.getMessage());
          done();
        });
        return;
      }
      ui.execute(() -> {
        reviews.show(result.servers());
        servers.setAll(result.servers());
        tellHeldBack(result.servers());
        if (result.servers().stream().noneMatch(x -> Mcp.Server.SIGN_IN_NEEDED.equals(x.state())))
          signingIn.set("");
        done();
      });
    });
  }

  private void done() {
    refreshing = false;
    if (again) {
      again = false;
      refresh();
    }
  }

  /**
   * {@code listener} is told, once per change, of each tool held back because its server now
   * describes it differently from what the user accepted (the chat shows it).
   */
  public void onHeldBack(java.util.function.Consumer<String> listener) {
    this.heldBack = listener;
  }

  private void tellHeldBack(List<Mcp.Server> now) {
    java.util.Set<String> changed = new java.util.HashSet<>();
    for (Mcp.Server server : now) {
      List<String> news = new ArrayList<>();
      for (Mcp.Tool tool : server.tools()) {
        if (!Mcp.Tool.CHANGED.equals(tool.pin())) continue;
        changed.add(tool.name());
        if (told.add(tool.name())) news.add(ShownText.escaped(tool.name()));
      }
      if (news.isEmpty()) continue;
      // Named by Steward's names only: the chat shows this as Steward's own words, and the
      // server's title for its tool could write anything there.
      String which = news.size() == 1
          ? "its tool " + news.get(0) + " says it does since you accepted it. The tool is off"
              + " until you look at it"
          : news.size() + " of its tools say they do since you accepted them ("
              + String.join(", ", news.subList(0, Math.min(5, news.size())))
              + (news.size() > 5 ? ", …" : "") + "). They are off until you look at them";
      heldBack.accept("The MCP server “" + ShownText.escaped(server.name()) + "” changed what "
          + which + " again in Settings → MCP servers.");
    }
    told.retainAll(changed);
  }

  /** Adds the servers of a pasted block (Claude Desktop, Cursor, VS Code or Steward shape). */
  public void addPasted() {
    Map<String, PolicyDocument.McpServer> add;
    try {
      add = McpPaste.read(pasted.get());
    } catch (IllegalArgumentException e) {
      error.set(String.valueOf(e.getMessage()));
      return;
    }
    addAll(add, () -> pasted.set(""));
  }

  /** Adds one server by name and command line (or URL). */
  public void addTyped() {
    String name = newName.get().strip();
    if (name.isEmpty()) {
      error.set("Give the server a name, e.g. notes");
      return;
    }
    PolicyDocument.McpServer entry;
    try {
      entry = McpPaste.typed(newCommand.get());
    } catch (IllegalArgumentException e) {
      error.set(String.valueOf(e.getMessage()));
      return;
    }
    addAll(Map.of(name, entry), () -> {
      newName.set("");
      newCommand.set("");
    });
  }

  /**
   * Adds entries; one that would give a server's name another program waits for the user's word
   * ({@link #replacingProperty}) instead.
   */
  private void addAll(Map<String, PolicyDocument.McpServer> add, Runnable onSaved) {
    List<McpReplacement> replacing = McpReplacement.of(shown.mcpServers(), keptNames(), add);
    if (!replacing.isEmpty()) {
      this.replacing.set(new Replacing(replacing, add, onSaved));
      return;
    }
    put(add, List.of(), onSaved);
  }

  /**
   * Puts the entries in the policy: the replacements in {@code confirmed} give a server another
   * program, which drops its tools' ratings and grants as removing it does; any other (the policy
   * changed since the user was asked) is refused.
   */
  private void put(
      Map<String, PolicyDocument.McpServer> add, List<McpReplacement> confirmed, Runnable onSaved) {
    Map<String, List<String>> kept = keptNames();
    policy.change(
        doc -> {
          PolicyDocument out = doc;
          for (McpReplacement r : McpReplacement.of(doc.mcpServers(), kept, add)) {
            if (confirmed.stream().noneMatch(r::sameAs))
              throw new IllegalArgumentException("“" + ShownText.escaped(r.server())
                  + "” changed meanwhile; add it again to see what it would replace.");
            out = withoutRatings(out, r.server());
          }
          Map<String, PolicyDocument.McpServer> next = new LinkedHashMap<>(out.mcpServers());
          next.putAll(add);
          return out.withMcpServers(next);
        },
        error,
        onSaved);
  }

  /**
   * By server, the names of the environment values the service keeps for it, as the last listing
   * gave them (the policy it shows has none).
   */
  private Map<String, List<String>> keptNames() {
    Map<String, List<String>> out = new HashMap<>();
    for (Mcp.Server s : servers) {
      List<String> names = s.keptEnv();
      if (names != null && !"http".equals(s.transport())) out.put(s.name(), List.copyOf(names));
    }
    return out;
  }

  /** Replaces the servers the user was asked about, as they confirmed. */
  public void confirmReplacing() {
    Replacing r = replacing.get();
    if (r == null) return;
    replacing.set(null);
    put(r.add(), r.servers(), r.onSaved());
  }

  /** Leaves the servers as they are; what was pasted or typed stays in its field. */
  public void cancelReplacing() {
    replacing.set(null);
  }

  /**
   * Entries waiting for the user's word because they would give a server another program: the
   * view asks ({@link #replacingQuestion}), then calls {@link #confirmReplacing} or {@link
   * #cancelReplacing}. Null when none waits.
   */
  public ReadOnlyObjectProperty<@Nullable Replacing> replacingProperty() {
    return replacing.getReadOnlyProperty();
  }

  /** What the user is asked before a server is given another program. */
  public static String replacingQuestion(Replacing r) {
    return McpReplacement.said(r.servers());
  }

  /** The program a server runs, on one line (its command and arguments, or its URL), or empty. */
  public String program(String server) {
    PolicyDocument.McpServer entry = shown.mcpServers().get(server);
    return entry == null ? "" : McpReplacement.program(entry);
  }

  /** Entries that would give servers another program, and what to do once they are saved. */
  public record Replacing(
      List<McpReplacement> servers, Map<String, PolicyDocument.McpServer> add, Runnable onSaved) {}

  /** Removes a server, and the ratings and grants of its tools with it. */
  public void remove(String server) {
    policy.change(
        doc -> {
          Map<String, PolicyDocument.McpServer> next = new LinkedHashMap<>(doc.mcpServers());
          next.remove(server);
          return withoutRatings(doc, server).withMcpServers(next);
        },
        error,
        () -> {});
  }

  /** {@code doc} without the overrides and grants of a server's tools. */
  private static PolicyDocument withoutRatings(PolicyDocument doc, String server) {
    String prefix = McpToolNames.prefix(server);
    Map<String, PolicyDocument.ToolOverride> overrides = new HashMap<>(doc.overrides());
    overrides.keySet().removeIf(tool -> tool.startsWith(prefix));
    List<PolicyDocument.StandingGrant> grants = new ArrayList<>(doc.grants());
    grants.removeIf(g -> g.tool().startsWith(prefix));
    return doc.withOverrides(overrides).withGrants(grants);
  }

  /**
   * Accepts a server's tools exactly as the card the user clicked on shows them ({@code onScreen}):
   * not when the server has described them anew since, or moments before ({@link McpReviews}); a
   * tool the service finds described anew since is not accepted, and the list is read again for the
   * user to look at.
   */
  public void accept(Mcp.Server onScreen) {
    McpSource s = source;
    if (s == null) {
      error.set("Not connected to the service yet");
      return;
    }
    String server = onScreen.name();
    String refused = reviews.refusal(onScreen);
    if (refused != null) {
      error.set(refused);
      refresh();
      return;
    }
    List<Mcp.Seen> shown = onScreen.shown();
    if (shown.isEmpty()) return;
    background.execute(() -> {
      try {
        Mcp.AcceptResult r = s.accept(server, shown);
        ui.execute(() -> {
          error.set(
              r.changed().isEmpty()
                  ? ""
                  : "“" + server + "” changed " + String.join(", ", r.changed())
                      + " while you were looking; look at the new words and accept again.");
          refresh();
        });
      } catch (RuntimeException e) {
        ui.execute(() -> error.set(String.valueOf(e.getMessage())));
      }
    });
  }

  /** How a server's card shows its tools for review now: see {@link McpReviews}. */
  McpReviews.Review review(String server) {
    return reviews.review(server);
  }

  public Rating rating(String tool) {
    PolicyDocument.ToolOverride o = shown.overrides().get(tool);
    if (o == null) return Rating.HINTS;
    if (o.off()) return Rating.OFF;
    if (o.confirmation() == Confirmation.NEVER) return Rating.UNASKED;
    if (o.confirmation() != null || o.risk() != null) return Rating.ASKS;
    return Rating.HINTS;
  }

  public void rate(String tool, Rating rating) {
    policy.change(
        doc -> {
          Map<String, PolicyDocument.ToolOverride> overrides = new HashMap<>(doc.overrides());
          switch (rating) {
            case HINTS -> overrides.remove(tool);
            case UNASKED ->
              overrides.put(
                  tool, new PolicyDocument.ToolOverride(Confirmation.NEVER, Risk.LOW, null));
            case ASKS ->
              overrides.put(
                  tool, new PolicyDocument.ToolOverride(Confirmation.ALWAYS, Risk.MEDIUM, null));
            case OFF -> overrides.put(tool, new PolicyDocument.ToolOverride(null, null, true));
          }
          return doc.withOverrides(overrides);
        },
        error,
        () -> {});
  }

  /** Whether any server has a tool waiting for review (new, or changed since accepted). */
  public boolean awaitsReview() {
    return servers.stream()
        .anyMatch(s -> s.tools().stream().anyMatch(t -> !Mcp.Tool.ACCEPTED.equals(t.pin())));
  }

  public ObservableList<Mcp.Server> servers() {
    return servers;
  }

  public StringProperty pastedProperty() {
    return pasted;
  }

  public StringProperty newNameProperty() {
    return newName;
  }

  public StringProperty newCommandProperty() {
    return newCommand;
  }

  /** How an address is opened in the user's browser (the application's host services). */
  public void openWith(java.util.function.Consumer<String> browser) {
    this.browser = browser;
  }

  /**
   * Starts a sign-in to a server at a URL: the service gives the address of the server's own
   * sign-in page, which opens in the user's browser; the server runs once the browser comes back.
   * The address is also shown, for a machine where no browser opens.
   */
  public void signIn(String server) {
    signIn(server, null, null);
  }

  /**
   * As {@link #signIn(String)}, with the client its provider gave the user, for a sign-in service
   * that does not let Steward register itself (blank: none).
   */
  public void signIn(String server, @Nullable String clientId, @Nullable String clientSecret) {
    String id = clientId == null || clientId.isBlank() ? null : clientId.strip();
    String secret =
        id == null || clientSecret == null || clientSecret.isEmpty() ? null : clientSecret;
    McpSource s = source;
    if (s == null) {
      error.set("Not connected to the service yet");
      return;
    }
    background.execute(() -> {
      try {
        String url = s.signIn(server, id, secret);
        String host = java.net.URI.create(url).getHost();
        ui.execute(() -> {
          error.set("");
          signingIn.set("Sign in to “" + server + "” at " + host
              + " in your browser. If no page opened, open: " + url);
          browser.accept(url);
        });
      } catch (RuntimeException e) {
        ui.execute(() -> error.set(String.valueOf(e.getMessage())));
      }
    });
  }

  public void signOut(String server) {
    McpSource s = source;
    if (s == null) return;
    background.execute(() -> {
      try {
        s.signOut(server);
        ui.execute(this::refresh);
      } catch (RuntimeException e) {
        ui.execute(() -> error.set(String.valueOf(e.getMessage())));
      }
    });
  }

  /**
   * Sets one of a server's kept values (an environment value, or a header of a server at a URL),
   * or removes it when {@code value} is null; the others stay, and the server restarts with them.
   */
  public void setValue(String server, String name, @Nullable String value) {
    McpSource s = source;
    if (s == null) {
      error.set("Not connected to the service yet");
      return;
    }
    if (name.isBlank()) {
      error.set("Name the value to set");
      return;
    }
    if (value != null && value.isEmpty()) {
      error.set("Type the value first (Remove takes one away)");
      return;
    }
    background.execute(() -> {
      try {
        s.setValue(server, name, value);
        ui.execute(() -> {
          error.set("");
          draft(server, name).set("");
          if (value != null) {
            draft(server, NEW_NAME).set("");
            draft(server, NEW_VALUE).set("");
          }
          refresh();
        });
      } catch (RuntimeException e) {
        ui.execute(() -> error.set(String.valueOf(e.getMessage())));
      }
    });
  }

  /** The add row's fields in {@link #draft}: names no value can have (no NUL in a name). */
  public static final String NEW_NAME = "\0name";

  public static final String NEW_VALUE = "\0value";

  /**
   * What the user has typed for one value of a server (or, by {@link #NEW_NAME} and {@link
   * #NEW_VALUE}, in its add row): kept here, as the cards are made again whenever the servers
   * change (a failing server retrying does), so typing is not lost meanwhile.
   */
  public StringProperty draft(String server, String name) {
    return drafts.computeIfAbsent(server + "\0" + name, k -> new SimpleStringProperty(""));
  }

  /** Whether a server's values are shown, kept across the cards being made again. */
  public javafx.beans.property.BooleanProperty valuesShown(String server) {
    return shownValues.computeIfAbsent(
        server, k -> new javafx.beans.property.SimpleBooleanProperty(false));
  }

  /** What a sign-in in progress asks of the user, or empty. */
  public ReadOnlyStringProperty signingInProperty() {
    return signingIn.getReadOnlyProperty();
  }

  public ReadOnlyStringProperty errorProperty() {
    return error.getReadOnlyProperty();
  }
}
