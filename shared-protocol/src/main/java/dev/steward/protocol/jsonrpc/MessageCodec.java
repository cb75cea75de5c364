package dev.steward.protocol.jsonrpc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/** Reads and writes JSON-RPC 2.0 frames, single messages and batches alike. */
public final class MessageCodec {

  private static final Set<String> REQUEST_KEYS = Set.of("jsonrpc", "id", "method", "params");

  private MessageCodec() {}

  /** One element of an inbound frame: a message, or the error response it earned. */
  public sealed interface Inbound permits Valid, Invalid {}

  public record Valid(Message message) implements Inbound {}

  public record Invalid(Response response) implements Inbound {}

  /** What a frame held: one element or a batch of them. */
  public record Frame(List<Inbound> items, boolean batch) {}

  /**
   * Parses an inbound frame. Never throws: a frame that is not JSON, or an element that is not a
   * valid message, becomes an {@link Invalid} carrying the standard error response.
   */
  public static Frame parse(String text) {
    JsonNode root;
    try {
      root = Json.parse(text);
    } catch (StreamConstraintsException e) {
      return single(
          invalid(null, ErrorCodes.INVALID_REQUEST, "Invalid Request: " + e.getOriginalMessage()));
    } catch (JsonProcessingException e) {
      return single(
          invalid(null, ErrorCodes.PARSE_ERROR, "Parse error: " + e.getOriginalMessage()));
    } catch (IOException e) {
      return single(invalid(null, ErrorCodes.PARSE_ERROR, "Parse error: " + e.getMessage()));
    }
    if (root == null || root.isMissingNode()) {
      return single(invalid(null, ErrorCodes.PARSE_ERROR, "Parse error: empty frame"));
    }
    if (root.isArray()) {
      if (root.isEmpty()) {
        return single(invalid(null, ErrorCodes.INVALID_REQUEST, "Invalid Request: empty batch"));
      }
      List<Inbound> items = new ArrayList<>(root.size());
      root.forEach(element -> items.add(read(element)));
      return new Frame(items, true);
    }
    return single(read(root));
  }

  /** Reads a server's frame on the client side: responses and notifications. */
  public static List<Message> parseFromServer(String text) throws IOException {
    return fromServer(Json.parseFromService(text));
  }

  /** {@link #parseFromServer(String)} of a frame read as it arrives. */
  public static List<Message> parseFromServer(java.io.Reader text) throws IOException {
    return fromServer(Json.parseFromService(text));
  }

  private static List<Message> fromServer(JsonNode root) throws IOException {
    List<Message> out = new ArrayList<>();
    if (root.isArray()) {
      for (JsonNode element : root) {
        out.add(readFromServer(element));
      }
    } else {
      out.add(readFromServer(root));
    }
    return out;
  }

  private static Message readFromServer(JsonNode node) throws IOException {
    if (node.has("method")) {
      return new Notification(node.get("method").asText(), node.get("params"));
    }
    JsonNode id = node.has("id") ? node.get("id") : NullNode.instance;
    JsonNode error = node.get("error");
    if (error != null && !error.isNull()) {
      return Response.error(
          id,
          new RpcError(
              error.path("code").asInt(ErrorCodes.INTERNAL_ERROR),
              error.path("message").asText(""),
              error.get("data")));
    }
    JsonNode result = node.get("result");
    if (result == null) {
      throw new IOException("a response without result or error");
    }
    return Response.result(id, result);
  }

  private static Frame single(Inbound item) {
    return new Frame(List.of(item), false);
  }

  private static Inbound read(JsonNode node) {
    if (!node.isObject()) {
      return invalid(null, ErrorCodes.INVALID_REQUEST, "Invalid Request: a message is an object");
    }
    JsonNode id = node.get("id");
    @Nullable JsonNode replyId = id != null && Ids.isValid(id) ? id : null;
    if (!Message.VERSION.equals(node.path("jsonrpc").textValue())) {
      return invalid(
          replyId, ErrorCodes.INVALID_REQUEST, "Invalid Request: \"jsonrpc\" must be \"2.0\"");
    }
    if (id != null && !Ids.isValid(id)) {
      return invalid(
          null,
          ErrorCodes.INVALID_REQUEST,
          "Invalid Request: \"id\" must be a string, an integer or null");
    }
    JsonNode method = node.get("method");
    if (method == null || !method.isTextual() || method.textValue().isEmpty()) {
      return invalid(
          replyId,
          ErrorCodes.INVALID_REQUEST,
          "Invalid Request: \"method\" must be a non-empty string");
    }
    JsonNode params = node.get("params");
    if (params != null && !params.isObject() && !params.isArray()) {
      return invalid(
          replyId,
          ErrorCodes.INVALID_REQUEST,
          "Invalid Request: \"params\" must be an object or an array");
    }
    for (var it = node.fieldNames(); it.hasNext(); ) {
      String key = it.next();
      if (!REQUEST_KEYS.contains(key)) {
        return invalid(
            replyId, ErrorCodes.INVALID_REQUEST, "Invalid Request: unknown member \"" + key + "\"");
      }
    }
    if (id == null) {
      return new Valid(new Notification(method.textValue(), params));
    }
    if (id.isNull()) {
      return invalid(
          null, ErrorCodes.INVALID_REQUEST, "Invalid Request: a request id must not be null");
    }
    return new Valid(new Request(id, method.textValue(), params));
  }

  private static Invalid invalid(@Nullable JsonNode id, int code, String message) {
    return new Invalid(Response.error(id, RpcError.of(code, message)));
  }

  public static ObjectNode toJson(Message message) {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("jsonrpc", Message.VERSION);
    if (message instanceof Request r) {
      node.set("id", r.id());
      node.put("method", r.method());
      if (r.params() != null) node.set("params", r.params());
    } else if (message instanceof Notification n) {
      node.put("method", n.method());
      if (n.params() != null) node.set("params", n.params());
    } else if (message instanceof Response r) {
      node.set("id", r.id());
      RpcError error = r.error();
      if (error != null) {
        ObjectNode e = node.putObject("error");
        e.put("code", error.code());
        e.put("message", error.message());
        if (error.data() != null) e.set("data", error.data());
      } else {
        node.set("result", r.result());
      }
    }
    return node;
  }

  /** Writes with the protocol's mapper, so records held in POJO nodes get snake_case names. */
  /**
   * The message as text for a WebSocket text frame. Strings are written through UTF-8, which
   * escapes a lone surrogate (half of an emoji cut in two, say) as {@code \\uD800}: left raw, it
   * cannot be encoded, and the JDK's WebSocket failed the whole connection on it.
   */
  public static String write(Message message) {
    return utf8Text(writeUtf8(message));
  }

  public static String writeBatch(List<? extends Message> messages) {
    return utf8Text(writeBatchUtf8(messages));
  }

  private static String utf8Text(java.nio.ByteBuffer utf8) {
    return new String(
        utf8.array(),
        utf8.arrayOffset() + utf8.position(),
        utf8.remaining(),
        java.nio.charset.StandardCharsets.UTF_8);
  }

  /** {@link #write} as UTF-8 bytes, for a text frame. */
  public static java.nio.ByteBuffer writeUtf8(Message message) {
    return Json.writeUtf8(toJson(message));
  }

  /** {@link #writeBatch} as UTF-8 bytes, for a text frame. */
  public static java.nio.ByteBuffer writeBatchUtf8(List<? extends Message> messages) {
    return Json.writeUtf8(batchJson(messages));
  }

  private static ArrayNode batchJson(List<? extends Message> messages) {
    ArrayNode array = JsonNodeFactory.instance.arrayNode();
    messages.forEach(m -> array.add(toJson(m)));
    return array;
  }
}
