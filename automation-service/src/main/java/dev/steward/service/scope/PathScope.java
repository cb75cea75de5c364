package dev.steward.service.scope;

import dev.steward.protocol.policy.PolicyDocument;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The folders tools may touch (SPEC §5). A requested path is expanded ({@code ~}, relative to the
 * first root), normalised, its existing symlinks resolved one component at a time, and only then
 * compared with the roots — by path components, never by string prefix. Some places are refused
 * even inside a root: key and password stores, browser profiles and Steward's own files.
 */
public final class PathScope {

  private static final int MAX_LINKS = 40;
  private static final int MAX_PATH_CHARS = 16384;

  /**
   * Linux's {@code PATH_MAX}, with its NUL: a longer path can be reached only folder by folder, and
   * what the gate checks by path before a tool runs (a file's stamp, an undo's copy) could not
   * read it.
   */
  private static final int PATH_MAX_BYTES = 4096;

  /** Names refused anywhere in a path (compared after NFKC and case folding). */
  private static final List<List<String>> DENIED = List.of(
      // keys, tokens and passwords
      List.of(".ssh"),
      List.of(".gnupg"),
      List.of(".password-store"),
      List.of(".netrc"),
      List.of(".git-credentials"),
      List.of(".aws"),
      List.of(".azure"),
      List.of(".kube"),
      List.of(".docker", "config.json"),
      List.of(".config", "gcloud"),
      List.of(".config", "gh"),
      List.of(".local", "share", "keyrings"),
      List.of(".config", "keepassxc"),
      List.of(".config", "bitwarden"),
      List.of(".config", "1password"),
      List.of(".1password"),
      List.of("keychains"),
      // browser profiles (cookies, saved passwords), native, Flatpak and Snap
      List.of(".mozilla"),
      List.of(".config", "google-chrome"),
      List.of(".config", "google-chrome-beta"),
      List.of(".config", "chromium"),
      List.of(".config", "bravesoftware"),
      List.of(".config", "microsoft-edge"),
      List.of(".config", "vivaldi"),
      List.of(".config", "opera"),
      List.of(".var", "app", "com.google.chrome"),
      List.of(".var", "app", "org.chromium.chromium"),
      List.of(".var", "app", "com.brave.browser"),
      List.of(".var", "app", "com.microsoft.edge"),
      List.of(".var", "app", "com.vivaldi.vivaldi"),
      List.of(".var", "app", "com.opera.opera"),
      List.of(".var", "app", "org.mozilla.firefox"),
      List.of("snap", "firefox"),
      List.of("snap", "chromium"),
      List.of("snap", "brave"),
      List.of("snap", "opera"),
      List.of("library", "application support", "google", "chrome"),
      List.of("library", "application support", "chromium"),
      List.of("library", "application support", "firefox"),
      List.of("library", "application support", "bravesoftware"),
      List.of("library", "application support", "microsoft edge"),
      List.of("library", "application support", "vivaldi"),
      List.of("library", "application support", "com.operasoftware.opera"),
      List.of("library", "application support", "1password"),
      List.of("library", "safari"),
      List.of("library", "cookies"),
      List.of("library", "containers", "com.apple.safari"),
      List.of("library", "group containers", "2bua8c4s2c.com.1password"),
      List.of("appdata", "local", "google", "chrome", "user data"),
      List.of("appdata", "local", "chromium", "user data"),
      List.of("appdata", "local", "microsoft", "edge", "user data"),
      List.of("appdata", "local", "bravesoftware"),
      List.of("appdata", "local", "vivaldi"),
      List.of("appdata", "roaming", "opera software"),
      List.of("appdata", "roaming", "mozilla"),
      List.of("appdata", "roaming", "bitwarden"),
      List.of("appdata", "local", "1password"));

  /**
   * Places whose files run as programs later, without a further word from the user: anywhere in a
   * path (a repository's hooks and config, an editor's tasks, direnv's file) …
   */
  private static final List<List<String>> RUN_ANYWHERE = List.of(
      List.of(".git"),
      List.of(".githooks"),
      List.of(".husky"),
      List.of(".envrc"),
      List.of(".vscode"),
      List.of(".idea"));

  /** … and in the home folder: the shells' and the session's start files, autostart, services. */
  private static final List<List<String>> RUN_IN_HOME = List.of(
      List.of(".bashrc"),
      List.of(".bash_profile"),
      List.of(".bash_login"),
      List.of(".bash_logout"),
      List.of(".bash_aliases"),
      List.of(".tmux.conf"),
      List.of(".profile"),
      List.of(".zshrc"),
      List.of(".zshenv"),
      List.of(".zprofile"),
      List.of(".zlogin"),
      List.of(".xprofile"),
      List.of(".xsession"),
      List.of(".xsessionrc"),
      List.of(".xinitrc"),
      List.of(".pam_environment"),
      List.of(".gitconfig"),
      List.of(".mavenrc"),
      List.of(".vimrc"),
      List.of(".emacs"),
      List.of(".emacs.d"),
      List.of("bin"),
      List.of(".local", "bin"),
      List.of(".local", "lib"),
      List.of(".cargo", "bin"),
      // What Steward itself runs: Playwright's browsers, JavaFX's unpacked libraries; and what the
      // desktop runs for the window (the handler of an address it opens, GTK's modules).
      List.of(".cache", "ms-playwright"),
      List.of(".openjfx"),
      List.of(".config", "mimeapps.list"),
      List.of(".config", "gtk-3.0"),
      List.of(".local", "share", "dbus-1"),
      List.of(".local", "share", "applications"),
      List.of(".local", "share", "systemd"),
      List.of(".config", "autostart"),
      List.of(".config", "systemd"),
      List.of(".config", "environment.d"),
      List.of(".config", "plasma-workspace"),
      List.of(".config", "fish"),
      List.of(".config", "git"),
      List.of(".config", "nvim"),
      List.of(".config", "i3"),
      List.of(".config", "sway"),
      List.of(".config", "hypr"),
      List.of(".config", "openbox"),
      List.of(".config", "labwc"));

  /**
   * The places under {@code home} whose files run as programs later (the shells' and the
   * session's start files, autostart, what Steward itself runs), whether or not they exist.
   */
  public static List<Path> startPlaces(Path home) {
    return RUN_IN_HOME.stream()
        .map(names -> home.resolve(String.join(java.io.File.separator, names)))
        .toList();
  }

  /** The last name of every refused pattern: a walked entry can only be refused if it is one. */
  private static final java.util.Set<String> LAST_NAMES = DENIED.stream()
      .map(p -> p.get(p.size() - 1))
      .collect(java.util.stream.Collectors.toUnmodifiableSet());
  /** {@link #LAST_NAMES} by length: a walk asks for every entry, and most names match none in length. */
  private static final String[][] LAST_NAMES_BY_LENGTH = byLength(LAST_NAMES);

  private record Root(Path real, boolean writable, String configured) {}

  private final List<Root> roots;
  private final List<Path> ownFolders;
  /** {@link #ownFolders} as case-folded names: a case-insensitive disk must not admit {@code STEWARD/config}. */
  private final List<List<String>> ownFolded;
  /** Each of {@link #ownFolders} as a folder and a name in it, for walks that ask folder after folder. */
  private final List<OwnFolder> ownByParent;

  private final Path userHome;
  /** The user's home folder, resolved. */
  private final Path homeReal;
  /** The user's home folder, resolved and case-folded, for rules about what lives directly in it. */
  private final List<String> homeFolded;

  private record OwnFolder(Path parent, String name) {}

  private PathScope(List<Root> roots, List<Path> ownFolders, Path userHome) {
    this.roots = roots;
    this.ownFolders = ownFolders;
    this.ownFolded = ownFolders.stream().map(PathScope::folded).toList();
    this.ownByParent = ownFolders.stream()
        .filter(own -> own.getParent() != null && own.getFileName() != null)
        .map(own -> new OwnFolder(own.getParent(), own.getFileName().toString()))
        .toList();
    this.userHome = userHome;
    this.homeReal = realise(userHome.toAbsolutePath().normalize());
    this.homeFolded = folded(homeReal);
  }

  /**
   * Builds the scope from the policy's roots. {@code ownFolders} are Steward's config, data and run
   * folders: refused whatever the roots say.
   */
  public static PathScope of(
      List<PolicyDocument.PathRoot> configured, List<Path> ownFolders, Path userHome) {
    List<Root> roots = new ArrayList<>();
    for (PolicyDocument.PathRoot r : configured) {
      Path lexical = expand(r.root(), userHome, null);
      roots.add(new Root(realise(lexical), r.writable(), r.root()));
    }
    List<Path> own =
        ownFolders.stream().map(p -> realise(p.toAbsolutePath().normalize())).toList();
    return new PathScope(List.copyOf(roots), own, userHome);
  }

  /** A configured root as a path: {@code ~} expanded, made absolute, normalised (not resolved). */
  public static Path expandRoot(String root, Path userHome) {
    return expand(root, userHome, null);
  }

  public ResolvedPath resolve(String requested, Access access) throws ScopeDenied {
    if (requested.isEmpty()) throw new ScopeDenied("the path is empty");
    if (requested.length() > MAX_PATH_CHARS)
      throw new ScopeDenied("the path is longer than " + MAX_PATH_CHARS + " characters");
    if (requested.indexOf('\0') >= 0) throw new ScopeDenied("the path contains a NUL character");
    if (roots.isEmpty()) throw new ScopeDenied("no folders are allowed in the policy");
    if (WINDOWS_STYLE && looksLikeWindows(requested)) {
      throw new ScopeDenied("\"" + requested
          + "\" is a Windows path; on this system paths use / (for example ~/Documents/notes.md)");
    }
    Path lexical;
    try {
      lexical = expand(requested, userHome, roots.get(0).real());
    } catch (InvalidPathException e) {
      throw new ScopeDenied("\"" + requested + "\" is not a valid path");
    }
    // Refused names count wherever they appear: in the path as asked, at every link followed on
    // the way (a ~/.ssh that links to ~/Documents/dotfiles/ssh is still ~/.ssh), and in the end.
    List<Path> links = new ArrayList<>(0);
    Path real = realiseFromRoot(lexical, links);
    if (real.toString().length() >= PATH_MAX_BYTES / 4
        && real.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8).length
            >= PATH_MAX_BYTES)
      throw new ScopeDenied("the path reaches deeper than the system lets a path name ("
          + (PATH_MAX_BYTES - 1) + " bytes)");
    for (Path seen : links) refuseNamed(requested, folded(seen));
    refuseNamed(requested, folded(lexical));
    List<String> names = folded(real);
    refuseNamed(requested, names);
    Root root = rootOf(real);
    if (root == null)
      throw new ScopeDenied("\"" + requested + "\" is outside the allowed folders" + allowedList());
    if (access != Access.READ && !root.writable()) {
      throw new ScopeDenied(
          "\"" + requested + "\" is in " + root.configured() + ", which is read-only");
    }
    if (access == Access.REMOVE) refuseHolder(requested, names);
    // A place whose files run later counts as the refused names do: as asked, at every link
    // followed (a ~/.config/autostart linked into a dotfiles folder is autostart still), and in
    // the end.
    String runsLater = null;
    if (access != Access.READ) {
      List<List<String>> seen = new ArrayList<>(links.size() + 2);
      seen.add(folded(lexical));
      for (Path l : links) seen.add(folded(l));
      seen.add(names);
      for (List<String> s : seen) {
        runsLater = runsLater(s).orElse(null);
        if (runsLater != null) break;
      }
    }
    return new ResolvedPath(requested, real, root.real(), runsLater, !links.isEmpty());
  }

  /**
   * A move or delete takes everything below the path with it: refused when the path holds one of
   * Steward's own folders, or ends where a refused pattern of several parts begins ({@code .config}
   * for {@code .config/google-chrome}) — moved, the pattern would no longer match what it protects.
   * A single name ({@code .ssh}) is refused wherever it lands, so it needs no such care.
   */
  private void refuseHolder(String requested, List<String> names) throws ScopeDenied {
    for (List<String> own : ownFolded) {
      if (startsWith(own, names)) {
        throw new ScopeDenied(
            "\"" + requested + "\" holds Steward's own files, so it may not be moved or deleted");
      }
    }
    // Only where such a pattern lives: in the home folder (~/.config, ~/Library, ~/AppData…). A
    // folder named "library" deep in a project is just a folder.
    List<String> home = homeFolded;
    if (names.size() <= home.size() || !startsWith(names, home)) return;
    int below = names.size() - home.size();
    for (List<String> pattern : DENIED) {
      int len = below;
      if (len >= 1 && len < pattern.size()) {
        if (names.subList(home.size(), names.size()).equals(pattern.subList(0, len))) {
          throw new ScopeDenied("\"" + requested + "\" is where " + String.join("/", pattern)
              + " lives, which is always refused, so it may not be moved or deleted");
        }
      }
    }
  }

  private static boolean startsWith(List<String> names, List<String> prefix) {
    return names.size() >= prefix.size() && names.subList(0, prefix.size()).equals(prefix);
  }

  /** Drive letters, UNC and backslash paths on a system whose separator is {@code /}. */
  static boolean looksLikeWindows(String path) {
    return path.indexOf('\\') >= 0
        || path.length() >= 2 && path.charAt(1) == ':' && Character.isLetter(path.charAt(0));
  }

  private static final boolean WINDOWS_STYLE = !java.io.File.separator.equals("\\");

  /**
   * Where a path (its folded names) lies in a place whose files run as programs later (a
   * repository's hooks, a shell's start file, autostart), named; empty elsewhere.
   */
  private Optional<String> runsLater(List<String> names) {
    for (List<String> pattern : RUN_ANYWHERE) {
      for (int i = 0; i + pattern.size() <= names.size(); i++) {
        if (names.subList(i, i + pattern.size()).equals(pattern))
          return Optional.of(String.join("/", pattern));
      }
    }
    List<String> home = homeFolded;
    if (names.size() > home.size() && startsWith(names, home)) {
      List<String> below = names.subList(home.size(), names.size());
      for (List<String> pattern : RUN_IN_HOME) {
        if (startsWith(below, pattern)) return Optional.of("~/" + String.join("/", pattern));
      }
    }
    return Optional.empty();
  }

  /**
   * The folder a standing grant for {@code real} would cover: its own folder, unless that is an
   * allowed root itself or the user's home folder (a grant there would cover everything in it).
   */
  public Optional<Path> grantFolder(Path real) {
    Path folder = real.getParent();
    if (folder == null || folder.equals(realise(userHome))) return Optional.empty();
    for (Root r : roots) {
      if (r.real().equals(folder)) return Optional.empty();
    }
    return Optional.of(folder);
  }

  /**
   * Whether what lies at {@code real} was put there by strangers: anything in a read-only root,
   * the Downloads folder wherever it is (its files and their names come from the web), and what
   * carries a mark of coming from there ({@link Provenance}) wherever it was moved to.
   */
  public boolean fromStrangers(Path real) {
    return !inWritableRoot(real) || inDownloads(real) || Provenance.marked(real);
  }

  /**
   * A folder of strangers' content inside the folder {@code real} (not {@code real} itself): a
   * read-only root, or the Downloads folder (where it really is, when {@code ~/Downloads} is a
   * link), where a walk of {@code real} would go. Empty when there is none.
   */
  public Optional<Path> strangersBelow(Path real) {
    for (Root r : roots) {
      if (!r.writable() && r.real().startsWith(real) && !r.real().equals(real))
        return Optional.of(r.real());
    }
    Path downloads = homeReal.resolve("Downloads");
    if (!Files.isDirectory(downloads)) return Optional.empty();
    Path where;
    try {
      where = realiseStrict(homeReal, downloads.getFileName(), downloads, new ArrayList<>(1));
    } catch (ScopeDenied e) {
      where = downloads; // too many links to follow: as written
    }
    return where.startsWith(real) && !where.equals(real) ? Optional.of(where) : Optional.empty();
  }

  /**
   * Whether an existing {@code real} lies in the Downloads folder, wherever a link takes it. Every
   * read asks: the folder is looked up from the resolved home (a stat, then an lstat), and where
   * there is none the stat says so without the exception a missing path's lstat builds — nothing
   * that exists can
   * lie in a folder that does not.
   */
  private boolean inDownloads(Path real) {
    Path downloads = homeReal.resolve("Downloads");
    if (!downloads.toFile().exists()) return false;
    try {
      return real.startsWith(
          realiseStrict(homeReal, downloads.getFileName(), downloads, new ArrayList<>(1)));
    } catch (ScopeDenied e) {
      return real.startsWith(downloads); // too many links to follow: as written
    }
  }

  /** Whether {@code real} lies inside a read-write root (untrusted content comes from elsewhere). */
  public boolean inWritableRoot(Path real) {
    Root root = rootOf(real);
    return root != null && root.writable();
  }

  /** The innermost root that contains {@code real} (component-wise), or null. Every call asks, so no stream. */
  private @org.jspecify.annotations.Nullable Root rootOf(Path real) {
    Root best = null;
    for (Root r : roots) {
      if (real.startsWith(r.real())
          && (best == null || r.real().getNameCount() > best.real().getNameCount())) best = r;
    }
    return best;
  }

  /** Whether a resolved path lies under {@code folder} (expanded and resolved like any request). */
  public boolean isUnder(Path real, String folder) {
    try {
      return real.startsWith(
          realise(expand(folder, userHome, roots.isEmpty() ? null : roots.get(0).real())));
    } catch (InvalidPathException e) {
      return false;
    }
  }

  /**
   * Which entries met while walking an allowed folder must be hidden. The folder itself was
   * checked, so only patterns ending in an entry's name can newly apply (the common case is one
   * set lookup of the folded name), and Steward's own folders. What depends only on the folder is
   * worked out once: a walk asks for every entry, and building each entry's path to ask cost more
   * than listing the entry.
   */
  public Children children(Path folderReal) {
    List<String> names = folded(folderReal);
    for (List<String> own : ownFolded) {
      if (startsWith(names, own)) return ALL_REFUSED;
    }
    return new Walked(folderReal);
  }

  private static final Children ALL_REFUSED = new Children() {
    @Override
    public boolean denied(String name) {
      return true;
    }

    @Override
    public Children below(Path subReal) {
      return this;
    }
  };

  /** The entries of a folder outside Steward's own: refused by name, or for being one of Steward's own. */
  private final class Walked implements Children {
    private final Path folderReal;
    private final List<String> ownHere;

    Walked(Path folderReal) {
      this.folderReal = folderReal;
      List<String> here = List.of();
      for (OwnFolder own : ownByParent) {
        if (folderReal.equals(own.parent())
            || folderReal.toString().equalsIgnoreCase(own.parent().toString())) {
          if (here.isEmpty()) here = new ArrayList<>();
          here.add(own.name());
        }
      }
      this.ownHere = here;
    }

    @Override
    public boolean denied(String name) {
      return !ownHere.isEmpty() && ownHere.stream().anyMatch(name::equalsIgnoreCase)
          || isLastName(name) && deniedPart(folderReal.resolve(name)).isPresent();
    }

    /** A sub-folder walked into was not refused, so it is not one of Steward's own folders or in one. */
    @Override
    public Children below(Path subReal) {
      return new Walked(subReal);
    }
  }

  /**
   * {@code LAST_NAMES.contains(fold(name))} without folding an ASCII name: folding lower-cases
   * into a new string whenever a name has a capital, as most source files' names do, and a walk
   * asks for every entry.
   */
  static boolean isLastName(String name) {
    int end = name.length();
    for (int i = 0; i < end; i++) {
      if (name.charAt(i) >= 0x80) return LAST_NAMES.contains(fold(name));
    }
    while (end > 1
        && (name.charAt(end - 1) == '.' || name.charAt(end - 1) == ' ')
        && !(end == 2 && name.charAt(0) == '.' && name.charAt(1) == '.')) {
      end--;
    }
    if (end >= LAST_NAMES_BY_LENGTH.length) return false;
    for (String last : LAST_NAMES_BY_LENGTH[end]) {
      if (name.regionMatches(true, 0, last, 0, end)) return true;
    }
    return false;
  }

  private static String[][] byLength(java.util.Set<String> names) {
    int longest = names.stream().mapToInt(String::length).max().orElse(0);
    String[][] out = new String[longest + 1][];
    for (int n = 0; n <= longest; n++) {
      int length = n;
      out[n] = names.stream().filter(name -> name.length() == length).toArray(String[]::new);
    }
    return out;
  }

  /** The rule {@link #isLastName} implements, by folding (its test compares the two). */
  static boolean isLastNameFolded(String name) {
    return LAST_NAMES.contains(fold(name));
  }

  static java.util.Set<String> lastNames() {
    return LAST_NAMES;
  }

  /** Whether an entry of a folder, by name, must be hidden (see {@link #children}). */
  public interface Children {
    boolean denied(String name);

    /**
     * The rule for a sub-folder of this folder, met in the walk and not {@link #denied}: what
     * {@link #children} of it answers, without looking for Steward's own folders above it again.
     */
    Children below(Path subReal);
  }

  private String allowedList() {
    StringBuilder sb = new StringBuilder(" (allowed: ");
    for (int i = 0; i < roots.size(); i++) {
      if (i > 0) sb.append(", ");
      sb.append(roots.get(i).configured()).append(roots.get(i).writable() ? "" : " read-only");
    }
    return sb.append(')').toString();
  }

  static Path expand(String raw, Path userHome, @org.jspecify.annotations.Nullable Path base) {
    Path p;
    if (raw.equals("~")) {
      p = userHome;
    } else if (raw.startsWith("~/") || raw.startsWith("~" + java.io.File.separator)) {
      p = userHome.resolve(raw.substring(2));
    } else {
      Path given = Path.of(raw);
      if (given.isAbsolute()) p = given;
      else if (base != null) p = base.resolve(given);
      else p = userHome.resolve(given);
    }
    return p.toAbsolutePath().normalize();
  }

  /** Refuses a path whose names lie in Steward's own folders or in a place always refused. */
  private void refuseNamed(String requested, List<String> names) throws ScopeDenied {
    for (List<String> own : ownFolded) {
      if (startsWith(names, own)) {
        throw new ScopeDenied(
            "\"" + requested + "\" is inside Steward's own files, which tools may never touch");
      }
    }
    Optional<String> denied = deniedPart(names);
    if (denied.isPresent()) {
      throw new ScopeDenied(
          "\"" + requested + "\" is inside " + denied.get() + ", which is always refused");
    }
  }

  /**
   * Like {@link #realise}, but a path that starts with a root's real path is resolved from that
   * root: the root's own folders were resolved when the policy was loaded, and the tools open
   * them by path anyway, so only the components below the root are looked at (one lstat each).
   */
  private Path realiseFromRoot(Path lexical, List<Path> links) throws ScopeDenied {
    for (Root r : roots) {
      if (lexical.startsWith(r.real()) && !lexical.equals(r.real())) {
        return realiseStrict(r.real(), r.real().relativize(lexical), lexical, links);
      }
    }
    return realiseStrict(lexical.getRoot(), lexical, lexical, links);
  }

  /** Resolves existing symlinks component by component; missing parts are kept as written. */
  static Path realise(Path lexical) {
    try {
      return realiseStrict(lexical);
    } catch (ScopeDenied e) {
      return lexical;
    }
  }

  private static Path realiseStrict(Path lexical) throws ScopeDenied {
    return realiseStrict(lexical.getRoot(), lexical, lexical, new ArrayList<>(0));
  }

  /** Resolves {@code rest} from {@code start}; every link it follows is added to {@code links}. */
  private static Path realiseStrict(Path start, Path rest, Path lexical, List<Path> links)
      throws ScopeDenied {
    Deque<Path> todo = new ArrayDeque<>();
    for (Path name : rest) todo.add(name);
    Path current = start;
    int followed = 0;
    while (!todo.isEmpty()) {
      Path name = todo.pollFirst();
      if (name.toString().equals("..")) {
        Path parent = current.getParent();
        current = parent == null ? current : parent;
        continue;
      }
      if (name.toString().equals(".")) continue;
      Path next = current.resolve(name);
      if (Files.isSymbolicLink(next)) {
        if (++followed > MAX_LINKS)
          throw new ScopeDenied("too many symbolic links in \"" + lexical + "\"");
        links.add(next);
        Path target;
        try {
          target = Files.readSymbolicLink(next);
        } catch (IOException e) {
          throw new ScopeDenied("cannot read the link " + next);
        }
        List<Path> parts = new ArrayList<>();
        for (Path t : target) parts.add(t);
        for (int i = parts.size() - 1; i >= 0; i--) todo.addFirst(parts.get(i));
        if (target.isAbsolute()) current = target.getRoot();
      } else {
        current = next;
      }
    }
    return current;
  }

  private static List<String> folded(Path real) {
    List<String> names = new ArrayList<>(real.getNameCount());
    for (Path n : real) names.add(fold(n.toString()));
    return names;
  }

  private static Optional<String> deniedPart(Path real) {
    return deniedPart(folded(real));
  }

  private static Optional<String> deniedPart(List<String> names) {
    for (List<String> pattern : DENIED) {
      for (int i = 0; i + pattern.size() <= names.size(); i++) {
        if (names.subList(i, i + pattern.size()).equals(pattern)) {
          return Optional.of(String.join("/", pattern));
        }
      }
    }
    return Optional.empty();
  }

  private static String fold(String name) {
    boolean ascii = true;
    for (int i = 0; i < name.length() && ascii; i++) ascii = name.charAt(i) < 0x80;
    String n =
        (ascii ? name : Normalizer.normalize(name, Normalizer.Form.NFKC)).toLowerCase(Locale.ROOT);
    // Windows ignores trailing dots and spaces: ".ssh." is ".ssh" there.
    int end = n.length();
    while (end > 0
        && (n.charAt(end - 1) == '.' || n.charAt(end - 1) == ' ')
        && end > 1
        && !n.substring(0, end).equals("..")) {
      end--;
    }
    return n.substring(0, end);
  }
}
