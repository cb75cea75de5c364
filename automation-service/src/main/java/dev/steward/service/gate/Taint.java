package dev.steward.service.gate;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * Which conversations have taken in untrusted content, and from where (SPEC §10). Kept by the
 * service per conversation (a connection's own key for a client that names none), never per turn,
 * and never forgotten: only tainted conversations are kept at all, and they are written to a file
 * in the data folder so a restart of the service does not launder them either.
 */
public final class Taint implements AutoCloseable {

  private static final Logger LOG = Logger.getLogger(Taint.class.getName());
  static final int MAX_SOURCES = 20;
  private static final int MAX_TEXT = 500;

  private final Map<String, List<String>> sources = new HashMap<>();
  private final Path file;
  private @Nullable BufferedWriter out;

  private Taint(Path file) {
    this.file = file;
  }

  /** Taint kept in {@code file}, one "key TAB source" line per new source; reads what is there. */
  public static Taint persistent(Path file) throws IOException {
    Taint t = new Taint(file);
    if (Files.exists(file)) {
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        int tab = line.indexOf('\t');
        if (tab > 0) t.remember(line.substring(0, tab), line.substring(tab + 1));
      }
    }
    return t;
  }

  public synchronized void add(String key, String source) {
    String clean = clean(source);
    if (!remember(key, clean)) return;
    try {
      if (out == null) {
        out = Files.newBufferedWriter(
            file, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      }
      out.write(clean(key));
      out.write('\t');
      out.write(clean);
      out.write('\n');
      out.flush();
    } catch (IOException e) {
      // The taint holds in memory for the service's life; only a restart could lose it.
      LOG.log(Level.WARNING, "taint: cannot write " + file, e);
    }
  }

  public synchronized List<String> of(String key) {
    List<String> list = sources.get(key);
    return list == null ? List.of() : List.copyOf(list);
  }

  private boolean remember(String key, String source) {
    List<String> list = sources.computeIfAbsent(key, k -> new ArrayList<>());
    if (list.contains(source) || list.size() >= MAX_SOURCES) return false;
    list.add(source);
    return true;
  }

  /** One line each: no tab or line break may split a record. */
  private static String clean(String text) {
    StringBuilder b = new StringBuilder(Math.min(text.length(), MAX_TEXT));
    for (int i = 0; i < text.length() && b.length() < MAX_TEXT; i++) {
      char c = text.charAt(i);
      b.append(Character.isISOControl(c) ? ' ' : c);
    }
    return b.toString();
  }

  @Override
  public synchronized void close() {
    if (out == null) return;
    try {
      out.close();
    } catch (IOException e) {
      LOG.log(Level.WARNING, "taint: cannot close " + file, e);
    }
    out = null;
  }
}
