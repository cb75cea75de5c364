package dev.steward.service.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.jsonrpc.RpcException;

/** A method's implementation: params in, result out, or an {@link RpcException}. */
@FunctionalInterface
public interface Handler {

  Object handle(Session session, JsonNode params) throws RpcException;
}
