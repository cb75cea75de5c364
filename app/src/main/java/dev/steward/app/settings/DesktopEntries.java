package dev.steward.app.settings;

import dev.steward.protocol.policy.PolicyDocument;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * Proposes app allowlist entries from installed {@code .desktop} files (freedesktop Desktop Entry
 * spec): the id is the file's name, the command is {@code Exec} split into arguments with its
 * first file or URL field code turned into {@code {target}} and the other field codes dropped.
 * Hidden entries, terminal programs and entries without a usable {@code Exec} are left out.
 * Nothing is added without the user picking it; the service checks what is saved.
 */
public final class DesktopEntries {

  /** A proposal: the allowlist entry and the name to show. */
  public record Proposal(String name, PolicyDocument.AppEntry entry) {}

  private DesktopEntries() {}

  /** The usual places: the user's own entries first, then the system's. */
  public static List<Path> defaultFolders(Path userHome) {
    return List.of(
        userHome.resolve(".local/share/applications"),
        Path.of("/usr/local/share/applications"),
        Path.of("/usr/share/applications"));
  }

  public static List<Proposal> scan(List<Path> folders) {
    Map<String, Proposal> byId = new LinkedHashMap<>();
    for (Path folder : folders) {
      if (!Files.isDirectory(folder)) continue;
      try (Stream<Path> files = Files.list(folder)) {
        files
            .filter(f -> f.getFileName().toString().endsWith(".desktop"))
            .sorted()
            .forEach(f -> {
              String id = f.getFileName()
                  .toString()
                  .replaceFirst("\\.desktop$", "")
                  .toLowerCase(Locale.ROOT)
                  .replaceAll("[^a-z0-9._-]", "-");
              if (byId.containsKey(id)) return; // the user's entry wins over the system's
              Proposal p = read(f, id);
              if (p != null) byId.put(id, p);
            });
      } catch (IOException e) {
        // an unreadable folder proposes nothing
      }
    }
    return List.copyOf(byId.values());
  }

  static @Nullable Proposal read(Path file, String id) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException | java.io.UncheckedIOException e) {
      return null;
    }
    Map<String, String> entry = new LinkedHashMap<>();
    boolean inMain = false;
    for (String line : lines) {
      String t = line.strip();
      if (t.startsWith("[")) {
        inMain = t.equals("[Desktop Entry]");
        continue;
      }
      if (!inMain || t.startsWith("#") || !t.contains("=")) continue;
      int eq = t.indexOf('=');
      entry.putIfAbsent(t.substring(0, eq).strip(), t.substring(eq + 1).strip());
    }
    if (!"Application".equals(entry.get("Type"))) return null;
    if ("true".equalsIgnoreCase(entry.get("NoDisplay"))
        || "true".equalsIgnoreCase(entry.get("Hidden"))
        || "true".equalsIgnoreCase(entry.get("Terminal"))) {
      return null;
    }
    String exec = entry.get("Exec");
    String name = entry.getOrDefault("Name", id);
    if (exec == null || exec.isBlank()) return null;
    List<String> command = command(exec);
    if (command == null || command.isEmpty()) return null;
    return new Proposal(name, new PolicyDocument.AppEntry(id, command));
  }

  /** Exec split per the spec's quoting; the first %f/%F/%u/%U becomes {target}; other codes go. */
  static @Nullable List<String> command(String exec) {
    List<String> args = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    boolean quoted = false;
    boolean any = false;
    for (int i = 0; i < exec.length(); i++) {
      char c = exec.charAt(i);
      if (quoted) {
        if (c == '\\' && i + 1 < exec.length()) {
          current.append(exec.charAt(++i));
        } else if (c == '"') {
          quoted = false;
        } else {
          current.append(c);
        }
      } else if (c == '"') {
        quoted = true;
        any = true;
      } else if (Character.isWhitespace(c)) {
        if (current.length() > 0 || any) args.add(current.toString());
        current.setLength(0);
        any = false;
      } else {
        current.append(c);
      }
    }
    if (quoted) return null; // malformed
    if (current.length() > 0 || any) args.add(current.toString());
    List<String> out = new ArrayList<>();
    boolean target = false;
    for (String a : args) {
      if (a.matches("%[fFuU]")) {
        if (!target) out.add("{target}");
        target = true;
      } else if (a.matches("%[A-Za-z]")) {
        // %i, %c, %k and the deprecated codes: nothing Steward passes
      } else {
        out.add(a.replace("%%", "%"));
      }
    }
    return out;
  }
}
