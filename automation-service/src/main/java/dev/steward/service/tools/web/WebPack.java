package dev.steward.service.tools.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.tools.PackContext;
import dev.steward.service.tools.PackMethod;
import dev.steward.service.tools.PackSecrets;
import dev.steward.service.tools.Tool;
import dev.steward.service.tools.ToolFailure;
import dev.steward.service.tools.ToolPack;
import java.io.IOException;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** The web tools: {@code web.fetch} and {@code web.search}. */
public final class WebPack implements ToolPack {

  static final String SEARCH_CHECK = "web.search_check";
  static final String HEADERS = "web.fetch_headers";
  static final String HEADER_SET = "web.fetch_header_set";

  @Override
  public String name() {
    return "web";
  }

  private volatile @Nullable WebSearch search;
  private volatile PackSecrets secrets = PackSecrets.none();
  /** One change of the configured headers at a time: each is a read, a change and a write. */
  private final Object headersLock = new Object();

  @Override
  public List<Tool> tools(PackContext context) {
    WebSearch s = new WebSearch(context.policy(), context.secrets());
    search = s;
    secrets = context.secrets();
    return List.of(new WebFetch(context.policy(), context.resolver(), context.secrets()), s);
  }

  @Override
  public void prime() {
    WebFetch.prime();
  }

  /**
   * Settings' Test of the search provider ({@code {}} → {@code {ok, provider, results | problem}});
   * the headers configured for addresses, by name only ({@code {}} → {@code {headers: [{origin,
   * name}]}}); and setting or removing one ({@code {origin, name, value | null}} → {@code {origin,
   * name, set}}). No method answers a configured value.
   */
  @Override
  public List<PackMethod> methods() {
    return List.of(
        new PackMethod(SEARCH_CHECK, params -> {
          WebSearch s = search;
          if (s == null)
            throw new ToolFailure(ToolErrorCodes.UNAVAILABLE, "the web pack has not started");
          return s.check();
        }),
        new PackMethod(HEADERS, params -> listHeaders()),
        new PackMethod(
            HEADER_SET,
            this::setHeader,
            (p, answer) -> (p.path("value").isTextual() ? "set" : "removed") + " the header "
                + PackMethod.quoted(p.path("name").asText())
                + " sent to " + p.path("origin").asText()));
  }

  private ObjectNode listHeaders() throws ToolFailure {
    ObjectNode out = Json.object();
    ArrayNode list = out.putArray("headers");
    read()
        .names()
        .forEach((origin, names) ->
            names.forEach(name -> list.addObject().put("origin", origin).put("name", name)));
    return out;
  }

  private ObjectNode setHeader(JsonNode params) throws ToolFailure {
    JsonNode origin = params.path("origin");
    JsonNode name = params.path("name");
    JsonNode value = params.path("value");
    if (!origin.isTextual() || !name.isTextual() || !(value.isTextual() || value.isNull())) {
      throw new ToolFailure(
          ToolErrorCodes.VALIDATION_ERROR,
          HEADER_SET + " takes {origin, name, value}: an address such as https://api.example.org,"
              + " a header's name, and its value (null removes it)");
    }
    synchronized (headersLock) {
      HostHeaders next;
      try {
        next = readOrNone()
            .with(origin.asText(), name.asText(), value.isNull() ? null : value.asText());
      } catch (IllegalArgumentException e) {
        throw new ToolFailure(ToolErrorCodes.VALIDATION_ERROR, String.valueOf(e.getMessage()));
      }
      try {
        secrets.set(HostHeaders.SECTION, HostHeaders.KEY, next.text());
      } catch (IllegalArgumentException e) {
        throw new ToolFailure(
            ToolErrorCodes.VALIDATION_ERROR,
            "the configured headers are too long together; remove some first");
      } catch (IOException e) {
        throw new ToolFailure(
            ToolErrorCodes.UNAVAILABLE,
            "config/secrets.json cannot be read or written; fix or remove it, then set the"
                + " headers again");
      }
      return Json.object()
          .put("origin", HostHeaders.origin(origin.asText()))
          .put("name", name.asText())
          .put("set", !value.isNull());
    }
  }

  /** What is configured; a setting that cannot be read is replaced by the one being set. */
  private HostHeaders readOrNone() {
    try {
      return HostHeaders.read(secrets);
    } catch (IOException e) {
      return HostHeaders.none();
    }
  }

  private HostHeaders read() throws ToolFailure {
    try {
      return HostHeaders.read(secrets);
    } catch (IOException e) {
      throw new ToolFailure(
          ToolErrorCodes.UNAVAILABLE, e.getMessage() + ": setting a header replaces it");
    }
  }
}
