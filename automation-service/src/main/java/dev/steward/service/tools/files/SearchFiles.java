package dev.steward.service.tools.files;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.protocol.util.Counted;
import dev.steward.service.scope.Access;
import dev.steward.service.scope.PathScope;
import dev.steward.service.scope.Provenance;
import dev.steward.service.scope.ResolvedPath;
import dev.steward.service.scope.SafeFs;
import dev.steward.service.tools.FileErrors;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolDefinitions;
import dev.steward.service.tools.ToolFailure;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code files.search}: files by name (glob) and/or lines by content (literal or regex) under a
 * folder. Folders are walked in parallel, each opened by descriptor without following links;
 * binary files (a NUL byte) are skipped; refused places (keys, Steward's own files) are never
 * entered. Results are bounded; a search that hits its limit or its time returns what it found
 * and says why it stopped.
 */
public final class SearchFiles extends SinglePathTool {

  static final int DEFAULT_MAX_RESULTS = 200;
  static final int MAX_FILE_BYTES = 64 << 20;
  static final int MAX_LINE_CHARS = 500;
  static final Duration SOFT_LIMIT = Duration.ofSeconds(20);
  /** A tool.progress message after every this many files. */
  static final int PROGRESS_EVERY = 2000;

  private static final ToolDefinition DEFINITION =
      ToolDefinitions.load(SearchFiles.class, "files.search.json");

  public SearchFiles() {
    super(DEFINITION, Access.READ);
  }

  @Override
  public Optional<String> taintSource(JsonNode args, ToolContext ctx) {
    ResolvedPath p = ctx.path("/path");
    // File names in a read-only root (Downloads) are chosen by strangers, as are the lines found:
    // searched, or searched through on the way (a search walks every folder below its path).
    Optional<Path> from = ctx.scope().fromStrangers(p.real())
        ? Optional.of(p.real())
        : ctx.scope().strangersBelow(p.real());
    return from.map(f -> (args.has("content") ? "file contents under " : "file names under ") + f);
  }

  /** One search's settings and shared state; tasks stop as soon as {@link #stop} is set. */
  private static final class Search {
    final ToolContext ctx;
    final @org.jspecify.annotations.Nullable Glob glob;
    final boolean globOnPath;
    final Path base;
    final @org.jspecify.annotations.Nullable LineMatcher content;
    final boolean hidden;
    final int maxResults;
    final long deadline;
    final ConcurrentLinkedQueue<ObjectNode> matches = new ConcurrentLinkedQueue<>();
    final AtomicInteger count = new AtomicInteger();
    final AtomicInteger files = new AtomicInteger();
    final AtomicInteger scanned = new AtomicInteger();
    volatile @org.jspecify.annotations.Nullable String stop;

    Search(
        ToolContext ctx,
        @org.jspecify.annotations.Nullable Glob glob,
        boolean globOnPath,
        Path base,
        @org.jspecify.annotations.Nullable LineMatcher content,
        boolean hidden,
        int maxResults) {
      this.ctx = ctx;
      this.glob = glob;
      this.globOnPath = globOnPath;
      this.base = base;
      this.content = content;
      this.hidden = hidden;
      this.maxResults = maxResults;
      this.deadline = System.nanoTime() + SOFT_LIMIT.toNanos();
    }

    /** The count of files the last progress report gave; under this object's lock. */
    private int reported;

    /**
     * A progress report, sent in order: the walk's threads reach their counts at once, and a
     * report of fewer files than one already sent is left out, so the count never goes back.
     */
    synchronized void progress(int scannedSoFar) {
      if (scannedSoFar <= reported) return;
      reported = scannedSoFar;
      ctx.progress()
          .accept("searched " + scannedSoFar + " files, " + Math.min(count.get(), maxResults)
              + " matches so far");
    }

    /** Whether the search should stop: stopped already, or past its time. */
    boolean stopped() {
      if (stop != null) return true;
      if (System.nanoTime() > deadline) stop = "time_limit";
      return stop != null;
    }

    boolean add(ObjectNode match) {
      if (count.incrementAndGet() > maxResults) {
        stop = "max_results";
        return false;
      }
      matches.add(match);
      return true;
    }
  }

  @Override
  public JsonNode run(JsonNode args, ToolContext ctx) throws ToolFailure {
    ResolvedPath dir = ctx.path("/path");
    if (!args.has("name_glob") && !args.has("content")) {
      throw new ToolFailure(
          ToolErrorCodes.VALIDATION_ERROR, "give name_glob, content, or both", "/content", null);
    }
    Glob glob = null;
    boolean globOnPath = false;
    if (args.has("name_glob")) {
      String g = args.get("name_glob").asText();
      globOnPath = g.contains("/");
      try {
        glob = Glob.of(g);
      } catch (IllegalArgumentException | com.google.re2j.PatternSyntaxException e) {
        throw new ToolFailure(
            ToolErrorCodes.VALIDATION_ERROR,
            "name_glob is not a valid glob: " + e.getMessage(),
            "/name_glob",
            null);
      }
    }
    LineMatcher content = null;
    if (args.has("content")) {
      try {
        content = LineMatcher.of(
            args.get("content").asText(),
            args.path("regex").asBoolean(false),
            args.path("case_sensitive").asBoolean(true));
      } catch (com.google.re2j.PatternSyntaxException e) {
        throw new ToolFailure(
            ToolErrorCodes.VALIDATION_ERROR,
            "content is not a regular expression this search takes (no look-around, no back-references): "
                + e.getDescription(),
            "/content",
            null);
      } catch (IllegalArgumentException e) {
        throw new ToolFailure(
            ToolErrorCodes.VALIDATION_ERROR,
            "content is too big a regular expression: " + e.getMessage(),
            "/content",
            null);
      }
    }
    Search s = new Search(
        ctx,
        glob,
        globOnPath,
        dir.real(),
        content,
        args.path("include_hidden").asBoolean(false),
        args.path("max_results").asInt(DEFAULT_MAX_RESULTS));
    ForkJoinTask<Void> task;
    try {
      SecureDirectoryStream<Path> top = SafeFs.openDir(dir);
      task = ParallelWalk.start(
          top, new Dir(dir.real(), ctx.scope().children(dir.real())), new Finder(s));
    } catch (java.nio.file.NotDirectoryException e) {
      throw new ToolFailure(
          ToolErrorCodes.EXECUTION_ERROR,
          "\"" + dir.requested() + "\" is a file, not a folder",
          "/path",
          null);
    } catch (IOException e) {
      throw FileErrors.of(e, dir.requested());
    }
    try {
      ParallelWalk.await(task, SOFT_LIMIT.toMillis() + 1000, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      s.stop = "cancelled";
      task.cancel(true);
      Thread.currentThread().interrupt();
      throw new ToolFailure(ToolErrorCodes.CANCELLED, "the search was cancelled");
    } catch (TimeoutException e) {
      s.stop = "time_limit";
    } catch (IOException e) {
      throw FileErrors.of(e, dir.requested());
    }
    List<ObjectNode> sorted = new ArrayList<>(s.matches);
    sorted.sort(Comparator.comparing((ObjectNode m) -> m.get("path").asText())
        .thenComparingInt(m -> m.path("line").asInt()));
    ObjectNode result = Json.object();
    ArrayNode out = result.putArray("matches");
    sorted.forEach(out::add);
    result.put("files_matched", s.files.get());
    result.put("truncated", s.stop != null);
    if (s.stop != null) result.put("stopped_because", s.stop);
    return result;
  }

  /** A folder to search: its real path, and which of its entries are refused. */
  private record Dir(Path real, PathScope.Children refused) {}

  /** Matches a folder's files here; its sub-folders are walked next. Unreadable entries are skipped, like rg. */
  private static final class Finder implements ParallelWalk.Visitor<Dir> {
    private final Search s;

    Finder(Search s) {
      this.s = s;
    }

    @Override
    public List<ParallelWalk.Sub<Dir>> visit(Dir folder, SecureDirectoryStream<Path> open) {
      List<ParallelWalk.Sub<Dir>> subs = new ArrayList<>();
      for (Path entry : open) {
        if (s.stopped()) break;
        Path child = entry.getFileName();
        if (!s.hidden && child.toString().startsWith(".")) continue;
        if (folder.refused().denied(child.toString())) continue;
        Path childReal = folder.real().resolve(child.toString());
        try {
          Optional<BasicFileAttributes> attrs = SafeFs.attributes(open, child);
          if (attrs.isEmpty() || attrs.get().isSymbolicLink()) continue;
          if (attrs.get().isDirectory()) {
            subs.add(new ParallelWalk.Sub<>(
                child, new Dir(childReal, folder.refused().below(childReal))));
          } else if (attrs.get().isRegularFile()) {
            file(open, child, childReal, attrs.get());
          }
        } catch (IOException e) {
          // unreadable, or replaced meanwhile: this entry is skipped, the folder's others are not
        }
      }
      return subs;
    }

    @Override
    public void failed(Dir folder, IOException e) {
      // an unreadable folder, or one that vanished mid-walk: its part of the tree is skipped
    }

    private void file(
        SecureDirectoryStream<Path> parent, Path name, Path child, BasicFileAttributes attrs)
        throws IOException {
      int n = s.scanned.incrementAndGet();
      if (n % PROGRESS_EVERY == 0) s.progress(n);
      if (s.glob != null) {
        Path subject = s.globOnPath ? s.base.relativize(child) : name;
        if (!s.glob.matches(subject.toString())) return;
      }
      if (s.content == null) {
        s.files.incrementAndGet();
        ObjectNode m = Json.object();
        m.put("path", child.toString());
        // A name found is shown: one a stranger chose (a download, a file written after untrusted
        // content) taints, as it would listed. One mark read per name shown, not per file walked.
        if (s.add(m) && Provenance.marked(child))
          s.ctx.taint().accept("file names found under " + s.base);
        return;
      }
      if (attrs.size() > MAX_FILE_BYTES) return;
      FileBytes.Content bytes = FileBytes.read(parent, name, (int) attrs.size());
      // Binary files are skipped. Whether a file is binary is one more pass over it, so where the
      // matcher's literal scan rules most files out first, only a file with a hit is asked.
      boolean prefiltered = s.content.prefilters();
      if (!prefiltered && bytes.binary()) return;
      List<LineMatcher.Hit> hits = s.content.find(bytes.bytes(), bytes.length(), s::stopped);
      if (hits.isEmpty() || prefiltered && bytes.binary()) return;
      // Lines from a file marked as a stranger's (a download, moved or saved anywhere) taint.
      if (Provenance.marked(child)) s.ctx.taint().accept("file contents of " + child);
      s.files.incrementAndGet();
      for (LineMatcher.Hit hit : hits) {
        ObjectNode m = Json.object();
        m.put("path", child.toString());
        m.put("line", hit.line());
        m.put(
            "text",
            hit.text().length() > MAX_LINE_CHARS
                ? hit.text().substring(0, MAX_LINE_CHARS) + "…"
                : hit.text());
        if (!s.add(m)) return;
      }
    }
  }

  @Override
  public String summarize(JsonNode args, JsonNode value) {
    return Counted.of(value.path("matches").size(), "match", "matches") + " in "
        + Counted.of(value.path("files_matched").asInt(), "file", "files")
        + (value.path("truncated").asBoolean()
            ? " (" + StopReason.inWords(value.path("stopped_because").asText()) + ")"
            : "");
  }
}
