package dev.steward.service.tools.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.protocol.util.Counted;
import dev.steward.service.scope.HostResolver;
import dev.steward.service.scope.HostScope;
import dev.steward.service.scope.PinningProxy;
import dev.steward.service.scope.ScopeDenied;
import dev.steward.service.tools.BaseTool;
import dev.steward.service.tools.HostUse;
import dev.steward.service.tools.PackSecrets;
import dev.steward.service.tools.SentSecrets;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolDefinitions;
import dev.steward.service.tools.ToolFailure;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jspecify.annotations.Nullable;

/**
 * {@code web.fetch}: GET, HEAD or POST one URL under the host scope (SPEC §5, §13). The gate has
 * checked the first host (allowlisted, or approved by the user). Here every connection goes
 * through a {@link PinningProxy} that connects only to the address it looked up and checked
 * (no private address unless the policy allows them), and every redirect is followed one hop at a
 * time, only to the approved host or an allowlisted one — anything else is stopped and listed.
 * The body is read up to a size and a time limit; HTML becomes readable text; the result taints.
 */
final class WebFetch extends BaseTool {

  static final int DEFAULT_MAX_CHARS = 20_000;
  static final int MAX_BODY_BYTES = 5 << 20;
  private static final int MAX_REDIRECTS = 10;
  /** Request headers a model may set; cookies and credentials are never among them. */
  private static final Set<String> HEADERS = Set.of(
      "accept",
      "accept-language",
      "content-type",
      "if-none-match",
      "if-modified-since",
      "cache-control");
  /** Response headers worth showing; the rest (cookies among them) stay out of the result. */
  private static final List<String> SHOWN = List.of(
      "content-type",
      "content-length",
      "content-language",
      "last-modified",
      "etag",
      "date",
      "location",
      "retry-after");

  private static final ToolDefinition DEFINITION =
      ToolDefinitions.load(WebFetch.class, "web.fetch.json");

  private static final ScheduledExecutorService DEADLINES =
      Executors.newSingleThreadScheduledExecutor(
          dev.steward.protocol.util.DaemonThreads.named("web-fetch-deadline"));

  private final Supplier<PolicyDocument> policy;
  private final HostResolver resolver;
  private final PackSecrets secrets;

  WebFetch(Supplier<PolicyDocument> policy, HostResolver resolver, PackSecrets secrets) {
    super(DEFINITION);
    this.policy = policy;
    this.resolver = resolver;
    this.secrets = secrets;
  }

  @Override
  public List<HostUse> hosts(JsonNode args) {
    return List.of(new HostUse("/url", args.path("url").asText()));
  }

  private static String method(JsonNode args) {
    return args.path("method").asText("GET");
  }

  /**
   * A POST can change something on the server: it asks first, whatever the host. So can any
   * request that carries the headers the user configured for its address (a token, a cookie): it
   * acts as the user there (an API that takes a GET to post a message), so in a conversation that
   * took in untrusted content it asks first too.
   */
  @Override
  public boolean mutates(JsonNode args) {
    return method(args).equals("POST") || carriesConfigured(args);
  }

  private boolean carriesConfigured(JsonNode args) {
    try {
      return !HostHeaders.read(secrets)
          .forUri(URI.create(args.path("url").asText()))
          .isEmpty();
    } catch (IOException | IllegalArgumentException e) {
      // an address or a setting that cannot be read sends no configured header
      return false;
    }
  }

  @Override
  public boolean destructive(JsonNode args, ToolContext ctx) {
    return method(args).equals("POST");
  }

  @Override
  public Optional<String> taintSource(JsonNode args, ToolContext ctx) {
    return Optional.of(HostUse.pageTaint(args.path("url").asText()));
  }

  /**
   * What the dialog says: the method and address, what a POST sends, and the names of the headers
   * the user configured for that address, which go with it.
   */
  @Override
  public Optional<JsonNode> preview(JsonNode args, ToolContext ctx) {
    String url = args.path("url").asText();
    String method = method(args);
    StringBuilder says = new StringBuilder(
        switch (method) {
          case "POST" ->
            "Send " + Counted.of(args.path("body").asText("").length(), "character", "characters")
                + " to " + url + " (POST)";
          case "HEAD" -> "Ask " + url + " for its headers (HEAD)";
          default -> "Fetch " + url + " and read it";
        });
    List<String> names = List.of();
    try {
      names = List.copyOf(HostHeaders.read(secrets).forUri(URI.create(url)).keySet());
    } catch (IOException | IllegalArgumentException e) {
      // an address or a setting that cannot be read sends no configured header
    }
    if (!names.isEmpty()) {
      says.append(", with your ")
          .append(String.join(", ", names))
          .append(names.size() == 1 ? " header" : " headers")
          .append(" for this address");
    }
    ObjectNode p = Json.object().put("says", says.toString());
    names.forEach(p.putArray("configured_headers")::add);
    return Optional.of(p);
  }

  @Override
  public Duration timeLimit() {
    return Duration.ofSeconds(75);
  }

  @Override
  public JsonNode run(JsonNode args, ToolContext ctx) throws ToolFailure {
    HostScope scope = new HostScope(policy.get().hosts(), resolver);
    URI uri = HostUse.checked(scope, args.path("url").asText(), "/url");
    String method = method(args);
    Map<String, String> headers = headers(args.path("headers"));
    byte[] body = args.path("body").asText("").getBytes(StandardCharsets.UTF_8);
    int maxChars = args.path("max_chars").asInt(DEFAULT_MAX_CHARS);
    boolean raw = args.path("as").asText("text").equals("raw");
    long deadline =
        System.nanoTime() + TimeUnit.SECONDS.toNanos(args.path("timeout_s").asLong(20));
    URI approved = uri;
    HostHeaders configured = HostHeaders.none();
    String configNote = null;
    try {
      configured = HostHeaders.read(secrets);
      if (configured.skipped() > 0) {
        configNote = configured.skipped() + " of the headers configured for addresses are not"
            + " valid and were left out (set them again in Settings)";
      }
    } catch (IOException e) {
      configNote = e.getMessage() + "; no configured header was sent";
    }
    Set<String> sent = new java.util.LinkedHashSet<>();
    SentSecrets secrets = new SentSecrets();
    Pins pins = new Pins(scope);
    PinningProxy proxy;
    try {
      proxy = PinningProxy.start(() -> pins);
    } catch (IOException e) {
      throw new ToolFailure(
          ToolErrorCodes.EXECUTION_ERROR, "cannot start the fetch: " + e.getMessage());
    }
    List<HttpClient> clients = new java.util.ArrayList<>();
    try (proxy) {
      HttpResponse<InputStream> response = null;
      for (int hop = 0; ; hop++) {
        // A client of its own for each hop: a connection kept open by the last server is never
        // where the next request, with its own address's headers, goes.
        HttpClient client = client(proxy);
        clients.add(client);
        try {
          // After untrusted content, the user's headers go only where the call was judged — and,
          // approved, where the dialog said: a redirect to another allowed address would carry
          // that address's, to a path the page chose.
          Map<String, String> own =
              ctx.tainted() && !sameOrigin(uri, approved) ? Map.of() : configured.forUri(uri);
          sent.addAll(own.keySet());
          own.forEach(secrets::add);
          response = send(client, request(uri, method, headers, own, body, deadline));
        } catch (IOException e) {
          pins.check(uri);
          throw e;
        }
        pins.check(uri);
        String location = response.headers().firstValue("location").orElse(null);
        if (response.statusCode() / 100 != 3 || location == null) break;
        URI next;
        try {
          next = scope.check(uri.resolve(location.strip()).toString());
        } catch (ScopeDenied | IllegalArgumentException e) {
          pins.blocked.add("redirect to " + location + " — " + e.getMessage());
          break;
        }
        String refusal = redirectRefusal(uri, next, approved, scope, method, response.statusCode());
        if (refusal != null) {
          pins.blocked.add("redirect to " + next + " — " + refusal);
          break;
        }
        if (hop + 1 >= MAX_REDIRECTS) {
          pins.blocked.add("redirect to " + next + " — more than " + MAX_REDIRECTS + " redirects");
          break;
        }
        response.body().close();
        int status = response.statusCode();
        if (status != 307 && status != 308 && !method.equals("HEAD")) {
          method = "GET";
          body = new byte[0];
        }
        uri = next;
      }
      ObjectNode result =
          result(response, uri, read(response.body(), deadline), maxChars, raw, pins, secrets);
      if (!sent.isEmpty()) sent.forEach(result.putArray("configured_headers")::add);
      if (configNote != null) {
        result.put(
            "note",
            result.has("note") ? result.get("note").asText() + "; " + configNote : configNote);
      }
      return result;
    } catch (IOException e) {
      throw new ToolFailure(
          ToolErrorCodes.EXECUTION_ERROR,
          "the fetch failed: " + secrets.clean(String.valueOf(e.getMessage())),
          "/url",
          null);
    } catch (ToolFailure f) {
      // A refusal may quote an address a server chose (a redirect to "<token>.example.com").
      String message = secrets.clean(f.error().message());
      if (message.equals(f.error().message())) throw f;
      throw new ToolFailure(
          f.error().code(), message, f.error().field(), f.error().details());
    } finally {
      clients.forEach(WebFetch::close);
    }
  }

  /**
   * The audit row says where the request ended (a redirect may take it to another allowed host,
   * with that host's configured headers), which of the user's headers went, and what was stopped.
   */
  @Override
  public String summarize(JsonNode args, JsonNode value) {
    StringBuilder s = new StringBuilder("status ")
        .append(value.path("status").asInt())
        .append(" from ")
        .append(value.path("final_url").asText());
    JsonNode sent = value.path("configured_headers");
    if (!sent.isEmpty()) {
      List<String> names = new java.util.ArrayList<>();
      sent.forEach(n -> names.add(n.asText()));
      s.append("; sent your configured headers ").append(String.join(", ", names));
    }
    int blocked = value.path("blocked").size();
    if (blocked > 0) s.append("; ").append(blocked).append(" blocked (redirects or addresses)");
    return s.toString();
  }

  /**
   * What a first fetch would otherwise load and build (~0.25 s of it, most of the first call):
   * the HTTP client, sending through a guard proxy that lets nothing through, and an HTML page's
   * text. The proxy refuses the request without looking a name up, so nothing leaves the machine;
   * the page is made here.
   */
  static void prime() {
    try (PinningProxy proxy = PinningProxy.start(() -> null)) {
      HttpClient client = client(proxy);
      try {
        HttpResponse<InputStream> refused = send(
            client,
            HttpRequest.newBuilder(URI.create("http://warm-up.invalid/"))
                .timeout(Duration.ofSeconds(5))
                .build());
        try (InputStream body = refused.body()) {
          body.readAllBytes();
        }
      } finally {
        close(client);
      }
    } catch (Exception e) {
      // the first fetch pays for it instead
    }
    StringBuilder page = new StringBuilder("<html><head><title>Warm-up</title></head><body>");
    for (int i = 0; i < 50; i++) {
      page.append("<h2>Part ")
          .append(i)
          .append("</h2><p>A paragraph with <a href=\"/")
          .append(i)
          .append("\">a link</a>, <b>bold</b> text and a list:</p><ul><li>one</li>")
          .append("<li>two</li></ul><script>var x = ")
          .append(i)
          .append(";</script>");
    }
    PageText.of(Jsoup.parse(page.append("</body></html>").toString(), "http://warm-up.invalid/"));
  }

  /**
   * Closes the client's connections and thread where the runtime can (an {@code HttpClient} is
   * {@code AutoCloseable} from Java 21; the build targets 17, where it is left to the collector).
   */
  private static void close(HttpClient client) {
    if ((Object) client instanceof AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (Exception e) {
        // the client is dropped either way
      }
    }
  }

  private static HttpClient client(PinningProxy proxy) {
    return HttpClient.newBuilder()
        .proxy(
            ProxySelector.of(new InetSocketAddress(InetAddress.getLoopbackAddress(), proxy.port())))
        .followRedirects(HttpClient.Redirect.NEVER)
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(15))
        .build();
  }

  /**
   * Why a redirect is not followed, or null: it may go to where the user approved (same scheme,
   * host and port) or to a listed host, never from https to http, and a body the user approved
   * for one place (a POST kept by 307 or 308) goes nowhere else.
   */
  static @Nullable String redirectRefusal(
      URI from, URI to, URI approved, HostScope scope, String method, int status) {
    if ("https".equalsIgnoreCase(from.getScheme()) && "http".equalsIgnoreCase(to.getScheme())) {
      return "from https to http";
    }
    boolean sameOrigin = sameOrigin(to, approved);
    boolean keepsBody = method.equals("POST") && (status == 307 || status == 308);
    if (keepsBody && !sameOrigin) return "the posted body goes only where you approved it";
    if (!sameOrigin && !scope.allowlisted(to)) {
      return "not the address you approved and not on your list of hosts";
    }
    return null;
  }

  /** The same scheme, host and port. */
  static boolean sameOrigin(URI a, URI b) {
    return HostScope.asciiHost(a).equals(HostScope.asciiHost(b))
        && a.getScheme().equalsIgnoreCase(b.getScheme())
        && port(a) == port(b);
  }

  private static int port(URI uri) {
    if (uri.getPort() >= 0) return uri.getPort();
    return "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
  }

  /**
   * Before a dialog shows the fetch: headers a model may set, with values a request can carry
   * (the HTTP client's own rule, so that what passes here is sent as it is).
   */
  @Override
  public void checkArgs(JsonNode args) throws ToolFailure {
    JsonNode given = args.path("headers");
    var names = given.fieldNames();
    while (names.hasNext()) {
      String name = names.next();
      if (!HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
        throw new ToolFailure(
            ToolErrorCodes.VALIDATION_ERROR,
            "the header " + name + " cannot be set; these can: "
                + String.join(", ", new java.util.TreeSet<>(HEADERS)),
            "/headers/" + name,
            null);
      }
      try {
        HttpRequest.newBuilder().setHeader(name, given.get(name).asText());
      } catch (IllegalArgumentException e) {
        throw new ToolFailure(
            ToolErrorCodes.VALIDATION_ERROR,
            "the value of " + name + " cannot be sent (a line break or a control character)",
            "/headers/" + name,
            null);
      }
    }
  }

  private static Map<String, String> headers(JsonNode given) {
    Map<String, String> out = new java.util.LinkedHashMap<>();
    var names = given.fieldNames();
    while (names.hasNext()) {
      String name = names.next();
      out.put(name, given.get(name).asText());
    }
    return out;
  }

  /**
   * One hop's request: the model's headers, then the ones the user configured for this hop's
   * address, which win over the model's of the same name.
   */
  private static HttpRequest request(
      URI uri,
      String method,
      Map<String, String> headers,
      Map<String, String> configured,
      byte[] body,
      long deadline)
      throws ToolFailure {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(remaining(deadline));
    switch (method) {
      case "HEAD" -> b.method("HEAD", HttpRequest.BodyPublishers.noBody());
      case "POST" -> b.POST(HttpRequest.BodyPublishers.ofByteArray(body));
      default -> b.GET();
    }
    try {
      b.setHeader("User-Agent", "Steward/0.1 (web.fetch)");
      headers.forEach(b::setHeader);
      configured.forEach(b::setHeader);
      return b.build();
    } catch (IllegalArgumentException e) {
      // the message may quote a configured value: it names the header's source, never the value
      throw new ToolFailure(
          ToolErrorCodes.VALIDATION_ERROR,
          configured.isEmpty()
              ? String.valueOf(e.getMessage())
              : "a header cannot be sent as it is (yours, or one configured for this address)",
          "/headers",
          null);
    }
  }

  private static Duration remaining(long deadline) throws ToolFailure {
    long left = deadline - System.nanoTime();
    if (left <= 0) throw new ToolFailure(ToolErrorCodes.TIMEOUT, "the fetch ran out of time");
    return Duration.ofNanos(left);
  }

  private static HttpResponse<InputStream> send(HttpClient client, HttpRequest request)
      throws ToolFailure, IOException {
    try {
      return client.send(request, HttpResponse.BodyHandlers.ofInputStream());
    } catch (HttpTimeoutException e) {
      throw new ToolFailure(
          ToolErrorCodes.TIMEOUT, "the server did not answer in time", "/url", null);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ToolFailure(ToolErrorCodes.CANCELLED, "the fetch was cancelled");
    }
  }

  /** The body so far, up to {@link #MAX_BODY_BYTES}; reading stops at the deadline. */
  private record Body(byte[] bytes, @Nullable String cut) {}

  private static Body read(InputStream in, long deadline) throws ToolFailure, IOException {
    java.util.concurrent.atomic.AtomicBoolean late =
        new java.util.concurrent.atomic.AtomicBoolean();
    long left = deadline - System.nanoTime();
    var closer = DEADLINES.schedule(
        () -> {
          late.set(true);
          try {
            in.close();
          } catch (IOException e) {
            // closing is how the read is stopped; nothing more to do
          }
        },
        Math.max(0, left),
        TimeUnit.NANOSECONDS);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buf = new byte[64 * 1024];
    try (in) {
      int n;
      while ((n = in.read(buf)) > 0) {
        if (Thread.currentThread().isInterrupted()) {
          throw new ToolFailure(ToolErrorCodes.CANCELLED, "the fetch was cancelled");
        }
        int room = MAX_BODY_BYTES - out.size();
        out.write(buf, 0, Math.min(n, room));
        if (n >= room) {
          return new Body(
              out.toByteArray(),
              "the body is larger than " + (MAX_BODY_BYTES >> 20) + " MB; only its start was read");
        }
      }
    } catch (IOException e) {
      if (!late.get()) throw e;
    } finally {
      closer.cancel(false);
    }
    if (late.get()) {
      throw new ToolFailure(
          ToolErrorCodes.TIMEOUT,
          "the body did not arrive in time (" + out.size() + " bytes read)",
          "/timeout_s",
          null);
    }
    return new Body(out.toByteArray(), null);
  }

  private static ObjectNode result(
      HttpResponse<InputStream> response,
      URI finalUri,
      Body body,
      int maxChars,
      boolean raw,
      Pins pins,
      SentSecrets secrets) {
    ObjectNode result = Json.object();
    result.put("status", response.statusCode());
    result.put("final_url", secrets.clean(finalUri.toString()));
    ObjectNode headers = result.putObject("headers");
    for (String name : SHOWN)
      response.headers().firstValue(name).ifPresent(v -> headers.put(name, secrets.clean(v)));
    String contentType = response.headers().firstValue("content-type").orElse("");
    result.put("content_type", secrets.clean(contentType));
    String mime = contentType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
    Charset charset = charset(contentType);
    String text;
    String title = null;
    String note = body.cut();
    if (mime.equals("text/html") || mime.equals("application/xhtml+xml")) {
      if (raw) {
        text = new String(body.bytes(), charset != null ? charset : StandardCharsets.UTF_8);
      } else {
        try {
          Document doc = Jsoup.parse(
              new ByteArrayInputStream(body.bytes()),
              charset == null ? null : charset.name(),
              finalUri.toString());
          title = doc.title();
          text = PageText.of(doc);
        } catch (IOException e) {
          text = "";
          note = "the page could not be read as HTML: " + e.getMessage();
        }
      }
    } else if (mime.startsWith("text/")
        || mime.endsWith("json")
        || mime.endsWith("+json")
        || mime.endsWith("xml")
        || mime.equals("application/javascript")
        || mime.isEmpty()) {
      text = new String(body.bytes(), charset != null ? charset : StandardCharsets.UTF_8);
    } else {
      text = "";
      note = "the body is " + mime + " (" + body.bytes().length + " bytes), not text";
    }
    // What the server sent back may quote what it was sent; the user's header values stay out.
    text = secrets.clean(text);
    if (title != null) result.put("title", secrets.clean(title));
    boolean truncated = body.cut() != null || text.length() > maxChars;
    if (text.length() > maxChars) {
      note = (note == null ? "" : note + "; ") + "the text has " + text.length()
          + " characters; max_chars is " + maxChars;
      text = text.substring(0, maxChars);
    }
    result.put("text", text);
    result.put("truncated", truncated);
    if (note != null) result.put("note", secrets.clean(note));
    ArrayNode blocked = result.putArray("blocked");
    pins.blocked.forEach(b -> blocked.add(secrets.clean(b)));
    return result;
  }

  private static @Nullable Charset charset(String contentType) {
    for (String part : contentType.split(";")) {
      String p = part.strip();
      if (p.toLowerCase(Locale.ROOT).startsWith("charset=")) {
        try {
          return Charset.forName(p.substring(8).replace("\"", "").strip());
        } catch (RuntimeException e) {
          return null;
        }
      }
    }
    return null;
  }

  /**
   * This fetch's addresses: each host looked up once, checked (no private address unless the
   * policy allows them), then the only address the proxy connects to for it.
   */
  private static final class Pins implements PinningProxy.Pins {
    private final HostScope scope;
    private final Map<String, Object> pinned = new ConcurrentHashMap<>();
    final List<String> blocked = new CopyOnWriteArrayList<>();

    Pins(HostScope scope) {
      this.scope = scope;
    }

    @Override
    public InetAddress pin(String host) throws ScopeDenied {
      Object known = pinned.computeIfAbsent(host, h -> {
        try {
          return scope.address(h);
        } catch (ScopeDenied e) {
          return e;
        }
      });
      if (known instanceof ScopeDenied denied) throw denied;
      return (InetAddress) known;
    }

    @Override
    public void refused(String what) {
      blocked.add(what);
    }

    /** Refuses the fetch when the proxy refused this URL's host (its answer is the proxy's). */
    void check(URI uri) throws ToolFailure {
      Object known = pinned.get(HostScope.asciiHost(uri));
      if (known instanceof ScopeDenied.NotFound missing) {
        throw new ToolFailure(ToolErrorCodes.EXECUTION_ERROR, missing.getMessage(), "/url", null);
      }
      if (known instanceof ScopeDenied denied) {
        throw new ToolFailure(ToolErrorCodes.SCOPE_DENIED, denied.getMessage(), "/url", null);
      }
    }
  }
}
