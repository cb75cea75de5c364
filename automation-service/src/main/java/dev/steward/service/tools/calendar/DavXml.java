package dev.steward.service.tools.calendar;

import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.tools.ToolFailure;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.jspecify.annotations.Nullable;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * WebDAV's XML answers, read with the JDK's parser hardened against what a hostile server could
 * send (no DTDs, no external entities, no XInclude).
 */
final class DavXml {

  static final String DAV = "DAV:";
  static final String CALDAV = "urn:ietf:params:xml:ns:caldav";

  /** One {@code response} of a multistatus: its href, and the properties that came back with 200. */
  record Item(String href, @Nullable String etag, @Nullable String calendarData) {}

  private DavXml() {}

  static List<Item> items(byte[] xml) throws ToolFailure {
    Document doc = parse(xml);
    List<Item> items = new ArrayList<>();
    NodeList responses = doc.getElementsByTagNameNS(DAV, "response");
    for (int i = 0; i < responses.getLength(); i++) {
      Element response = (Element) responses.item(i);
      String href = text(first(response, DAV, "href"));
      if (href == null) continue;
      String etag = null;
      String data = null;
      NodeList propstats = response.getElementsByTagNameNS(DAV, "propstat");
      for (int j = 0; j < propstats.getLength(); j++) {
        Element propstat = (Element) propstats.item(j);
        String status = text(first(propstat, DAV, "status"));
        if (status != null && !status.contains(" 200 ")) continue;
        String e = text(first(propstat, DAV, "getetag"));
        String d = text(first(propstat, CALDAV, "calendar-data"));
        if (e != null) etag = e;
        if (d != null) data = d;
      }
      items.add(new Item(href.strip(), etag, data));
    }
    return items;
  }

  static CalDav.Collection collection(byte[] xml) throws ToolFailure {
    Document doc = parse(xml);
    String name = text(first(doc.getDocumentElement(), DAV, "displayname"));
    Element type = first(doc.getDocumentElement(), DAV, "resourcetype");
    boolean calendar =
        type != null && type.getElementsByTagNameNS(CALDAV, "calendar").getLength() > 0;
    return new CalDav.Collection(name == null || name.isBlank() ? null : name.strip(), calendar);
  }

  static String escape(String text) {
    StringBuilder b = new StringBuilder(text.length());
    for (char c : text.toCharArray()) {
      switch (c) {
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '&' -> b.append("&amp;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&apos;");
        default -> b.append(c);
      }
    }
    return b.toString();
  }

  private static @Nullable Element first(@Nullable Element in, String ns, String name) {
    if (in == null) return null;
    NodeList found = in.getElementsByTagNameNS(ns, name);
    return found.getLength() == 0 ? null : (Element) found.item(0);
  }

  private static @Nullable String text(@Nullable Node node) {
    return node == null ? null : node.getTextContent();
  }

  private static Document parse(byte[] xml) throws ToolFailure {
    try {
      DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
      f.setNamespaceAware(true);
      f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      f.setFeature("http://xml.org/sax/features/external-general-entities", false);
      f.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
      f.setXIncludeAware(false);
      f.setExpandEntityReferences(false);
      DocumentBuilder b = f.newDocumentBuilder();
      b.setErrorHandler(new org.xml.sax.helpers.DefaultHandler() {
        @Override
        public void error(org.xml.sax.SAXParseException e) throws SAXException {
          throw e;
        }
      });
      return b.parse(new ByteArrayInputStream(xml));
    } catch (ParserConfigurationException e) {
      throw new IllegalStateException("the JDK's XML parser lacks a safety feature", e);
    } catch (SAXException | IOException e) {
      throw new ToolFailure(
          ToolErrorCodes.EXECUTION_ERROR,
          "the calendar server's answer is not the XML CalDAV speaks: "
              + String.valueOf(e.getMessage()));
    }
  }
}
