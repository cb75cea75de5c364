package dev.steward.service.tools.files;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/** The wire form of a directory entry (SPEC §6): path, name, type, size, modified. */
final class Entries {

  private Entries() {}

  static String type(BasicFileAttributes a) {
    if (a.isSymbolicLink()) return "symlink";
    if (a.isDirectory()) return "directory";
    return "file";
  }

  static ObjectNode entry(Path path, BasicFileAttributes a) {
    ObjectNode n = Json.object();
    n.put("path", path.toString());
    n.put("name", path.getFileName() == null ? path.toString() : path.getFileName().toString());
    n.put("type", type(a));
    n.put("size", a.isDirectory() ? 0 : a.size());
    n.put("modified", a.lastModifiedTime().toInstant().toString());
    return n;
  }
}
