package dev.steward.service.tools.calendar;

import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.tools.ToolFailure;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The CalDAV requests the pack makes (RFC 4791), all to one collection and the objects inside it:
 * a {@code calendar-query} REPORT for a time range or a UID, GET, PUT that never overwrites blindly
 * ({@code If-None-Match: *} to create, {@code If-Match} to replace), DELETE with {@code If-Match}.
 * No redirect is followed (it would carry the password elsewhere), and an answer naming an object
 * outside the collection is ignored: nothing of another calendar is ever read.
 */
final class CalDav {

  /** One calendar object: where it is, its version, its iCalendar text. */
  record Resource(URI href, @Nullable String etag, String ics) {}

  /** Where an object is and its version, without its text. */
  record Version(URI href, @Nullable String etag) {}

  /** What a check of the collection found: its display name, and whether it holds events. */
  record Collection(@Nullable String displayName, boolean calendar) {}

  private static final int MAX_ANSWER = 32 << 20;
  private static final Duration TIME = Duration.ofSeconds(30);
  private static final DateTimeFormatter UTC =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  private static final java.util.concurrent.ScheduledExecutorService DEADLINES =
      java.util.concurrent.Executors.newSingleThreadScheduledExecutor(
          dev.steward.protocol.util.DaemonThreads.named("caldav-deadlines"));

  private final HttpClient client;
  private final URI collection;
  private final String authorization;

  CalDav(HttpClient client, URI collection, String user, String password) {
    this.client = client;
    this.collection = collection;
    this.authorization = "Basic "
        + Base64.getEncoder()
            .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  URI collection() {
    return collection;
  }

  /** Every object with an event in {@code [from, to)}; recurring ones whole, for the caller to expand. */
  List<Resource> query(Instant from, Instant to) throws ToolFailure {
    return resources(report(WITH_DATA, range(from, to)));
  }

  /**
   * Where the objects with an event in {@code [from, to)} are and their versions: the same
   * question as {@link #query}, a quarter of the answer, for a caller that has read most of them.
   */
  List<Version> versions(Instant from, Instant to) throws ToolFailure {
    List<Version> kept = new ArrayList<>();
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (DavXml.Item item : report("<D:getetag/>", range(from, to))) {
      URI href = inside(item.href());
      if (href != null && seen.add(canonical(href))) kept.add(new Version(href, item.etag()));
    }
    return kept;
  }

  /**
   * The objects at these addresses in the collection (a {@code calendar-multiget}), or empty when
   * the server did not answer for every one of them (RFC 4791 says it must): the caller then asks
   * for the range whole rather than miss an event.
   */
  Optional<List<Resource>> multiget(List<URI> hrefs) throws ToolFailure {
    if (hrefs.isEmpty()) return Optional.of(List.of());
    StringBuilder body = new StringBuilder("<?xml version=\"1.0\" encoding=\"utf-8\"?>"
        + "<C:calendar-multiget xmlns:D=\"DAV:\" xmlns:C=\"urn:ietf:params:xml:ns:caldav\">"
        + "<D:prop>" + WITH_DATA + "</D:prop>");
    java.util.Set<String> asked = new java.util.HashSet<>();
    for (URI href : hrefs) {
      if (!holds(href)) throw new IllegalArgumentException("not inside the calendar: " + href);
      if (asked.add(canonical(href))) {
        body.append("<D:href>").append(DavXml.escape(href.getRawPath())).append("</D:href>");
      }
    }
    body.append("</C:calendar-multiget>");
    java.util.Set<String> answered = new java.util.HashSet<>();
    List<Resource> found = new ArrayList<>();
    for (DavXml.Item item : multistatus(body.toString(), false)) {
      URI href = inside(item.href());
      // Only what was asked for: an answer may not slip in another object.
      if (href == null || !asked.contains(canonical(href))) continue;
      answered.add(canonical(href));
      if (item.calendarData() != null)
        found.add(new Resource(href, item.etag(), item.calendarData()));
    }
    return answered.containsAll(asked) ? Optional.of(found) : Optional.empty();
  }

  private static String range(Instant from, Instant to) {
    return "<C:comp-filter name=\"VEVENT\"><C:time-range start=\"" + UTC.format(from) + "\" end=\""
        + UTC.format(to) + "\"/></C:comp-filter>";
  }

  /** The object whose event has this UID, if the calendar holds one. */
  Optional<Resource> byUid(String uid) throws ToolFailure {
    List<Resource> found = resources(report(
        WITH_DATA,
        "<C:comp-filter name=\"VEVENT\"><C:prop-filter name=\"UID\">"
            + "<C:text-match collation=\"i;octet\">" + DavXml.escape(uid)
            + "</C:text-match></C:prop-filter></C:comp-filter>"));
    // text-match is a substring match: only the object whose UID is exactly this one counts.
    return found.stream().filter(r -> Ics.uids(r.ics()).contains(uid)).findFirst();
  }

  /** Stores a new object; refused (ALREADY_EXISTS) when something is already there. Answers its ETag. */
  @Nullable
  String create(URI href, String ics) throws ToolFailure {
    HttpResponse<byte[]> r = send(put(href, ics).header("If-None-Match", "*"));
    if (r.statusCode() == 412) {
      throw new ToolFailure(
          ToolErrorCodes.CONFLICT, "an event is already stored at " + href.getPath());
    }
    expect(r, "store the event");
    return etagOf(href, r);
  }

  /** Replaces an object only if it is still the version read; answers the new ETag. */
  @Nullable
  String replace(URI href, String ics, String etag) throws ToolFailure {
    HttpRequest.Builder b = put(href, ics);
    b.header("If-Match", etag);
    HttpResponse<byte[]> r = send(b);
    if (r.statusCode() == 412) throw changed();
    expect(r, "change the event");
    return etagOf(href, r);
  }

  /** Deletes an object only if it is still the version read. */
  void delete(URI href, String etag) throws ToolFailure {
    HttpRequest.Builder b = request(href).DELETE();
    b.header("If-Match", etag);
    HttpResponse<byte[]> r = send(b);
    if (r.statusCode() == 412) throw changed();
    if (r.statusCode() == 404) {
      throw new ToolFailure(ToolErrorCodes.NOT_FOUND, "the event is no longer in the calendar");
    }
    expect(r, "delete the event");
  }

  /**
   * The version of an object read, without which no change is made: a change over an unknown
   * version could overwrite one made elsewhere.
   */
  static String version(@Nullable String etag) throws ToolFailure {
    if (etag == null || etag.isBlank()) {
      throw new ToolFailure(
          ToolErrorCodes.CONFLICT,
          "the calendar server gives no version (ETag) for this event, so a change could overwrite"
              + " one made elsewhere; nothing was changed");
    }
    return etag;
  }

  /** Reads one object (its ETag included), or empty when it is gone. */
  Optional<Resource> get(URI href) throws ToolFailure {
    HttpResponse<byte[]> r = send(request(href).GET());
    if (r.statusCode() == 404 || r.statusCode() == 410) return Optional.empty();
    expect(r, "read the event");
    return Optional.of(new Resource(
        href,
        r.headers().firstValue("ETag").orElse(null),
        new String(r.body(), StandardCharsets.UTF_8)));
  }

  /** Whether the configured address is a calendar this account may read, and its name. */
  Collection check() throws ToolFailure {
    HttpResponse<byte[]> r = send(request(collection)
        .method(
            "PROPFIND",
            HttpRequest.BodyPublishers.ofString(
                "<?xml version=\"1.0\" encoding=\"utf-8\"?><D:propfind xmlns:D=\"DAV:\">"
                    + "<D:prop><D:resourcetype/><D:displayname/></D:prop></D:propfind>"))
        .header("Depth", "0")
        .header("Content-Type", "application/xml; charset=utf-8"));
    expect(r, "read the calendar");
    return DavXml.collection(r.body());
  }

  /** What a PROPFIND found: the status, where a redirect points, the body. */
  record Answer(int status, @Nullable String location, byte[] body) {}

  /**
   * A PROPFIND of these properties (inside {@code <D:prop>}) on an address under this collection;
   * a redirect is answered, not followed, and any other failure is thrown as for every request.
   */
  Answer propfind(URI target, int depth, String props) throws ToolFailure {
    HttpResponse<byte[]> r = send(request(target)
        .method(
            "PROPFIND",
            HttpRequest.BodyPublishers.ofString("<?xml version=\"1.0\" encoding=\"utf-8\"?>"
                + "<D:propfind xmlns:D=\"DAV:\" xmlns:C=\"urn:ietf:params:xml:ns:caldav\">"
                + "<D:prop>" + props + "</D:prop></D:propfind>"))
        .header("Depth", Integer.toString(depth))
        .header("Content-Type", "application/xml; charset=utf-8"));
    if (r.statusCode() / 100 != 3) expect(r, "read the account");
    return new Answer(r.statusCode(), r.headers().firstValue("Location").orElse(null), r.body());
  }

  /** The object of a new event with this file name inside the collection. */
  URI child(String name) {
    return collection.resolve(name);
  }

  /** Whether {@code href} is an object inside this collection (never the collection, never elsewhere). */
  boolean holds(URI href) {
    URI n = href.normalize();
    String base = collection.normalize().getRawPath();
    String path = n.getRawPath();
    // The collection's path ends with "/", so this compares whole path components.
    return n.getScheme() != null
        && n.getScheme().equalsIgnoreCase(collection.getScheme())
        && n.getHost() != null
        && n.getHost().equalsIgnoreCase(collection.getHost())
        && port(n) == port(collection)
        && path != null
        && path.startsWith(base)
        && path.length() > base.length()
        && !path.contains("/../")
        && !encodesAPathStep(path.substring(base.length()));
  }

  /** An escaped "/" or a ".." spelled with escapes: a server may read either as a step out. */
  private static boolean encodesAPathStep(String rawTail) {
    String lower = rawTail.toLowerCase(java.util.Locale.ROOT);
    if (lower.contains("%2f") || lower.contains("%5c")) return true;
    for (String step : lower.split("/", -1)) {
      String decoded = step.replace("%2e", ".");
      if (decoded.equals("..") || decoded.equals(".")) return true;
    }
    return false;
  }

  /**
   * One spelling of an address in the collection, however a server escaped it ({@code %40} or
   * {@code @}, {@code %c3%a9} or {@code é}): the same object is the same key.
   */
  static String canonical(URI href) {
    URI n = href.normalize();
    try {
      return new URI(
              n.getScheme() == null ? null : n.getScheme().toLowerCase(java.util.Locale.ROOT),
              n.getRawAuthority() == null
                  ? null
                  : n.getRawAuthority().toLowerCase(java.util.Locale.ROOT),
              n.getPath(),
              null,
              null)
          .toASCIIString();
    } catch (java.net.URISyntaxException e) {
      return n.toASCIIString();
    }
  }

  private static int port(URI u) {
    if (u.getPort() != -1) return u.getPort();
    return "https".equalsIgnoreCase(u.getScheme()) ? 443 : 80;
  }

  private static final String WITH_DATA = "<D:getetag/><C:calendar-data/>";

  private List<DavXml.Item> report(String props, String filter) throws ToolFailure {
    return multistatus("<?xml version=\"1.0\" encoding=\"utf-8\"?>"
        + "<C:calendar-query xmlns:D=\"DAV:\" xmlns:C=\"urn:ietf:params:xml:ns:caldav\">"
        + "<D:prop>" + props + "</D:prop>"
        + "<C:filter><C:comp-filter name=\"VCALENDAR\">" + filter + "</C:comp-filter></C:filter>"
        + "</C:calendar-query>");
  }

  private List<DavXml.Item> multistatus(String body) throws ToolFailure {
    return multistatus(body, true);
  }

  /** A REPORT to the collection; a multiget names its objects and goes without a depth. */
  private List<DavXml.Item> multistatus(String body, boolean depth) throws ToolFailure {
    HttpRequest.Builder b = request(collection)
        .method("REPORT", HttpRequest.BodyPublishers.ofString(body))
        .header("Content-Type", "application/xml; charset=utf-8");
    if (depth) b.header("Depth", "1");
    HttpResponse<byte[]> r = send(b);
    if (r.statusCode() != 207) expect(r, "read the calendar");
    return DavXml.items(r.body());
  }

  /** The items that are objects inside the collection, with their text. */
  private List<Resource> resources(List<DavXml.Item> items) {
    List<Resource> kept = new ArrayList<>();
    for (DavXml.Item item : items) {
      URI href = inside(item.href());
      if (href != null && item.calendarData() != null) {
        kept.add(new Resource(href, item.etag(), item.calendarData()));
      }
    }
    return kept;
  }

  /** An answer's href as an address inside the collection, or null for anything else. */
  private @Nullable URI inside(String href) {
    try {
      URI u = collection.resolve(href);
      return holds(u) ? u : null;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private HttpRequest.Builder put(URI href, String ics) {
    return request(href)
        .PUT(HttpRequest.BodyPublishers.ofString(ics, StandardCharsets.UTF_8))
        .header("Content-Type", "text/calendar; charset=utf-8");
  }

  private HttpRequest.Builder request(URI uri) {
    if (!uri.equals(collection) && !holds(uri)) {
      throw new IllegalArgumentException("not inside the calendar: " + uri);
    }
    return HttpRequest.newBuilder(uri).timeout(TIME).header("Authorization", authorization);
  }

  /** Some servers send no ETag with a PUT: ask for it, so a later change can be checked. */
  private @Nullable String etagOf(URI href, HttpResponse<byte[]> r) throws ToolFailure {
    Optional<String> etag = r.headers().firstValue("ETag");
    if (etag.isPresent()) return etag.get();
    return get(href).map(Resource::etag).orElse(null);
  }

  private HttpResponse<byte[]> send(HttpRequest.Builder b) throws ToolFailure {
    HttpRequest request = b.build();
    try {
      HttpResponse<InputStream> r;
      try {
        r = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
      } catch (IOException e) {
        if (!closedUnanswered(e)) throw e;
        // The JDK keeps a connection to a server that answered in HTTP/1.0 (Radicale's own
        // server) and reuses it after the server closed it: nothing reached the server, so the
        // request goes once more. Changes are conditional (If-Match, If-None-Match), so even a
        // repeat could never overwrite anything; at worst it is refused as a conflict.
        r = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
      }
      byte[] body;
      // The request's timeout ends with the headers; a server that trickles the body is cut off
      // at the same limit by closing the stream under the read.
      try (InputStream in = r.body()) {
        var cutOff = DEADLINES.schedule(
            () -> {
              try {
                in.close();
              } catch (IOException e) {
                // closing is all that is wanted
              }
            },
            TIME.toMillis(),
            java.util.concurrent.TimeUnit.MILLISECONDS);
        try {
          body = in.readNBytes(MAX_ANSWER + 1);
        } finally {
          cutOff.cancel(false);
        }
      }
      if (body.length > MAX_ANSWER) {
        throw new ToolFailure(
            ToolErrorCodes.TOO_LARGE,
            "the calendar server's answer is over " + (MAX_ANSWER >> 20)
                + " MB; ask for a shorter range");
      }
      return new Response(r, body);
    } catch (HttpConnectTimeoutException e) {
      throw unreachable("the connection timed out");
    } catch (HttpTimeoutException e) {
      throw new ToolFailure(
          ToolErrorCodes.TIMEOUT,
          "the calendar server did not answer within " + TIME.toSeconds() + " s");
    } catch (ConnectException e) {
      throw unreachable("the connection was refused");
    } catch (javax.net.ssl.SSLException e) {
      throw unreachable(
          e.getMessage() == null
              ? "the TLS handshake failed"
              : "the TLS handshake failed (" + e.getMessage() + ")");
    } catch (IOException e) {
      throw unreachable(e.getMessage() == null ? "the connection failed" : e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ToolFailure(ToolErrorCodes.CANCELLED, "the call was cancelled");
    }
  }

  private static boolean closedUnanswered(IOException e) {
    if (e instanceof HttpTimeoutException || e instanceof ConnectException) return false;
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof java.io.EOFException) return true;
      if (String.valueOf(t.getMessage()).contains("received no bytes")) return true;
    }
    return false;
  }

  private ToolFailure unreachable(String why) {
    return new ToolFailure(
        ToolErrorCodes.UNAVAILABLE,
        "cannot reach the calendar server " + collection.getHost() + ": " + why);
  }

  private static ToolFailure changed() {
    return new ToolFailure(
        ToolErrorCodes.CONFLICT,
        "the event was changed in the calendar since it was read (its ETag differs); nothing was"
            + " changed: read it again");
  }

  private void expect(HttpResponse<byte[]> r, String doing) throws ToolFailure {
    int s = r.statusCode();
    if (s >= 200 && s < 300) return;
    String where = collection.getHost() + collection.getRawPath();
    if (s == 401) {
      throw new ToolFailure(
          ToolErrorCodes.UNAVAILABLE,
          "the calendar server refused the user name or password (HTTP 401): check them in"
              + " Settings → Calendar");
    }
    if (s == 403) {
      throw new ToolFailure(
          ToolErrorCodes.UNAVAILABLE,
          "the calendar server does not let this account " + doing + " at " + where
              + " (HTTP 403)");
    }
    if (s == 404) {
      throw new ToolFailure(
          ToolErrorCodes.UNAVAILABLE, "there is no calendar at " + where + " (HTTP 404)");
    }
    if (s >= 300 && s < 400) {
      throw new ToolFailure(
          ToolErrorCodes.UNAVAILABLE,
          "the calendar server redirects " + where + " elsewhere (HTTP " + s
              + "); set the calendar's own address in Settings → Calendar");
    }
    throw new ToolFailure(
        ToolErrorCodes.EXECUTION_ERROR,
        "the calendar server could not " + doing + " (HTTP " + s + ")");
  }

  /** A response whose body was read within the limit. */
  private record Response(HttpResponse<InputStream> head, byte[] body)
      implements HttpResponse<byte[]> {
    @Override
    public int statusCode() {
      return head.statusCode();
    }

    @Override
    public HttpRequest request() {
      return head.request();
    }

    @Override
    public Optional<HttpResponse<byte[]>> previousResponse() {
      return Optional.empty();
    }

    @Override
    public java.net.http.HttpHeaders headers() {
      return head.headers();
    }

    @Override
    public Optional<javax.net.ssl.SSLSession> sslSession() {
      return head.sslSession();
    }

    @Override
    public URI uri() {
      return head.uri();
    }

    @Override
    public HttpClient.Version version() {
      return head.version();
    }
  }
}
