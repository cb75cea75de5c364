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
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
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

  /** Read as a stream: a month of a busy calendar is a large answer, and only four elements count. */
  static List<Item> items(byte[] xml) throws ToolFailure {
    List<Item> items = new ArrayList<>();
    try {
      XMLStreamReader r = STREAMS.createXMLStreamReader(new ByteArrayInputStream(xml));
      String href = null;
      String etag = null;
      String data = null;
      String propEtag = null;
      String propData = null;
      String status = null;
      while (r.hasNext()) {
        int event = r.next();
        if (event == XMLStreamConstants.DTD || event == XMLStreamConstants.ENTITY_REFERENCE) {
          // WebDAV needs neither; a server sending them is probing for entity tricks.
          throw new XMLStreamException("a DOCTYPE or an entity reference");
        }
        if (event == XMLStreamConstants.START_ELEMENT) {
          String ns = r.getNamespaceURI();
          String name = r.getLocalName();
          if (DAV.equals(ns)) {
            switch (name) {
              case "response" -> {
                href = null;
                etag = null;
                data = null;
              }
              case "propstat" -> {
                propEtag = null;
                propData = null;
                status = null;
              }
              case "href" -> {
                String text = r.getElementText();
                if (href == null) href = text;
              }
              case "getetag" -> propEtag = r.getElementText();
              case "status" -> status = r.getElementText();
              default -> {}
            }
          } else if (CALDAV.equals(ns) && name.equals("calendar-data")) {
            propData = r.getElementText();
          }
        } else if (event == XMLStreamConstants.END_ELEMENT && DAV.equals(r.getNamespaceURI())) {
          if (r.getLocalName().equals("propstat") && (status == null || status.contains(" 200 "))) {
            if (propEtag != null) etag = propEtag;
            if (propData != null) data = propData;
          } else if (r.getLocalName().equals("response") && href != null) {
            items.add(new Item(href.strip(), etag, data));
          }
        }
      }
      r.close();
    } catch (XMLStreamException e) {
      throw notDav(e);
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

  private static final XMLInputFactory STREAMS = streams();

  private static XMLInputFactory streams() {
    XMLInputFactory f = XMLInputFactory.newFactory();
    f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    f.setProperty(XMLInputFactory.IS_REPLACING_ENTITY_REFERENCES, false);
    f.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
    return f;
  }

  private static ToolFailure notDav(Exception e) {
    return new ToolFailure(
        ToolErrorCodes.EXECUTION_ERROR,
        "the calendar server's answer is not the XML CalDAV speaks: "
            + String.valueOf(e.getMessage()));
  }

  static Document parse(byte[] xml) throws ToolFailure {
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
