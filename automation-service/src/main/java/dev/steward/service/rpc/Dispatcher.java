package dev.steward.service.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.jsonrpc.ErrorCodes;
import dev.steward.protocol.jsonrpc.Message;
import dev.steward.protocol.jsonrpc.Notification;
import dev.steward.protocol.jsonrpc.Request;
import dev.steward.protocol.jsonrpc.Response;
import dev.steward.protocol.jsonrpc.RpcError;
import dev.steward.protocol.jsonrpc.RpcException;
import dev.steward.protocol.method.Role;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Maps method names to handlers, checks the caller's role, and turns exceptions into responses. */
public final class Dispatcher {

  private static final Logger LOG = Logger.getLogger(Dispatcher.class.getName());

  private record Method(Set<Role> roles, Handler handler) {}

  private final Map<String, Method> methods = new HashMap<>();
  private final BiConsumer<Session, RpcError> refusals;

  /** {@code refusals} hears every protocol-level refusal (for the audit log). */
  public Dispatcher(BiConsumer<Session, RpcError> refusals) {
    this.refusals = refusals;
  }

  public Dispatcher register(String name, Set<Role> roles, Handler handler) {
    if (methods.putIfAbsent(name, new Method(EnumSet.copyOf(roles), handler)) != null) {
      throw new IllegalArgumentException("method " + name + " registered twice");
    }
    return this;
  }

  public Dispatcher register(String name, Handler handler) {
    return register(name, EnumSet.allOf(Role.class), handler);
  }

  /** Answers a request; a notification gets no response (but is still run). */
  public Optional<Response> dispatch(Session session, Message message) {
    if (message instanceof Request r) {
      return Optional.of(call(session, r.id(), r.method(), r.params()));
    }
    if (message instanceof Notification n) {
      call(session, null, n.method(), n.params());
    }
    return Optional.empty();
  }

  private Response call(
      Session session,
      @org.jspecify.annotations.Nullable JsonNode id,
      String name,
      @org.jspecify.annotations.Nullable JsonNode params) {
    Method m = methods.get(name);
    if (m == null) {
      return refuse(
          session, id, RpcError.of(ErrorCodes.METHOD_NOT_FOUND, "Method not found: " + name));
    }
    if (!m.roles().contains(session.role())) {
      return refuse(
          session,
          id,
          RpcError.of(
              ErrorCodes.FORBIDDEN,
              name + " is not allowed for the " + session.role().wire() + " role"));
    }
    JsonNode p = params == null ? JsonNodeFactory.instance.objectNode() : params;
    try {
      Object result = m.handler().handle(session, p);
      return Response.result(
          id == null ? JsonNodeFactory.instance.nullNode() : id,
          result instanceof JsonNode n ? n : Json.pojo(result));
    } catch (RpcException e) {
      return refuse(session, id, e.error());
    } catch (RuntimeException e) {
      LOG.log(Level.SEVERE, "method " + name + " failed", e);
      return Response.error(
          id, RpcError.of(ErrorCodes.INTERNAL_ERROR, "Internal error in " + name));
    }
  }

  /** Records a frame element that was refused before it reached any method. */
  public void refuseInvalid(Session session, RpcError error) {
    refusals.accept(session, error);
  }

  private Response refuse(
      Session session, @org.jspecify.annotations.Nullable JsonNode id, RpcError error) {
    refusals.accept(session, error);
    return Response.error(id, error);
  }
}
