package dev.steward.service.tools.calendar;

import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.tools.ToolFailure;
import java.net.URI;
import java.net.http.HttpClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Settings' "Find my calendars" (RFC 6764 and 4791): from a server's address, the account's
 * principal, its calendar home, and the calendars there that hold events, with their names. Only
 * names are read, only on the server given, only when the user asks; the model never reaches it.
 */
final class Discovery {

  /** A calendar of the account: its address and its display name. */
  record Found(String url, @Nullable String name) {}

  private final CalDav dav;

  Discovery(HttpClient client, URI server, String user, String password) {
    this.dav = new CalDav(client, server.resolve("/"), user, password);
  }

  List<Found> calendars(URI server) throws ToolFailure {
    URI principal = principal(server)
        .or(() -> wellKnown(server))
        .orElseThrow(() -> new ToolFailure(
            ToolErrorCodes.NOT_FOUND,
            "the server does not say which account this is (no current-user-principal at " + server
                + " or its /.well-known/caldav): give the calendar's own address"));
    URI home = href(
            dav.propfind(principal, 0, "<C:calendar-home-set/>"),
            DavXml.CALDAV,
            "calendar-home-set")
        .orElseThrow(() -> new ToolFailure(
            ToolErrorCodes.NOT_FOUND, "the account has no calendar home on this server"));
    Document list = DavXml.parse(dav.propfind(
            home, 1, "<D:resourcetype/><D:displayname/><C:supported-calendar-component-set/>")
        .body());
    List<Found> found = new ArrayList<>();
    NodeList responses = list.getElementsByTagNameNS(DavXml.DAV, "response");
    for (int i = 0; i < responses.getLength(); i++) {
      Element r = (Element) responses.item(i);
      if (r.getElementsByTagNameNS(DavXml.CALDAV, "calendar").getLength() == 0) continue;
      NodeList comps = r.getElementsByTagNameNS(DavXml.CALDAV, "comp");
      boolean events = comps.getLength() == 0;
      for (int j = 0; j < comps.getLength(); j++) {
        events |= "VEVENT".equalsIgnoreCase(((Element) comps.item(j)).getAttribute("name"));
      }
      NodeList hrefs = r.getElementsByTagNameNS(DavXml.DAV, "href");
      if (!events || hrefs.getLength() == 0) continue;
      URI url = sameServer(home.resolve(hrefs.item(0).getTextContent().strip()));
      if (url == null) continue;
      NodeList names = r.getElementsByTagNameNS(DavXml.DAV, "displayname");
      String name =
          names.getLength() == 0 ? null : names.item(0).getTextContent().strip();
      found.add(new Found(url.toString(), name == null || name.isEmpty() ? null : name));
    }
    return found;
  }

  private Optional<URI> principal(URI at) {
    try {
      CalDav.Answer a = dav.propfind(at, 0, "<D:current-user-principal/>");
      return a.status() / 100 == 2
          ? href(a, DavXml.DAV, "current-user-principal")
          : Optional.empty();
    } catch (ToolFailure e) {
      return Optional.empty();
    }
  }

  /** {@code /.well-known/caldav}, its redirects followed on the same server only. */
  private Optional<URI> wellKnown(URI server) {
    URI at = server.resolve("/.well-known/caldav");
    try {
      for (int hop = 0; hop < 4; hop++) {
        CalDav.Answer a = dav.propfind(at, 0, "<D:current-user-principal/>");
        if (a.status() / 100 == 2) return href(a, DavXml.DAV, "current-user-principal");
        if (a.location() == null) return Optional.empty();
        URI next = sameServer(at.resolve(a.location()));
        if (next == null) return Optional.empty();
        at = next;
      }
    } catch (ToolFailure e) {
      return Optional.empty();
    }
    return Optional.empty();
  }

  private Optional<URI> href(CalDav.Answer a, String ns, String property) throws ToolFailure {
    Document d = DavXml.parse(a.body());
    NodeList props = d.getElementsByTagNameNS(ns, property);
    if (props.getLength() == 0) return Optional.empty();
    NodeList hrefs = ((Element) props.item(0)).getElementsByTagNameNS(DavXml.DAV, "href");
    if (hrefs.getLength() == 0) return Optional.empty();
    return Optional.ofNullable(
        sameServer(dav.collection().resolve(hrefs.item(0).getTextContent().strip())));
  }

  /** An address on the server asked, or null: discovery never follows a server elsewhere. */
  private @Nullable URI sameServer(URI u) {
    URI root = dav.collection();
    return dav.holds(u) || u.normalize().getRawPath().equals(root.getRawPath()) ? u : null;
  }
}
