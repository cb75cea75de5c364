package dev.steward.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.app.FakeOllama.Reply;
import java.util.List;

/** A loopback model server the window tests can run against: Ollama's API or OpenAI's. */
public interface ModelStub extends AutoCloseable {

  /** The model name the server lists first. */
  String modelName();

  void enqueue(Reply... replies);

  /** The chat requests received so far, parsed; both APIs put {@code messages} and {@code tools} alike. */
  List<JsonNode> chatRequests();

  /** Points {@code config/settings.json} at this server. */
  void configure(ObjectNode settings);

  @Override
  void close();
}
