package dev.steward.app.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.net.httpserver.HttpServer;
import dev.steward.app.FakeOllama;
import dev.steward.app.FakeOpenAi;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;
import org.junit.jupiter.api.Test;

class LocalServersTest {

  @Test
  void onlyWhatAnswersAsAModelServerIsOffered() throws Exception {
    int closed;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closed = s.getLocalPort();
    }
    HttpServer other =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    other.createContext("/", ex -> {
      byte[] body = "<html>a web app</html>".getBytes();
      ex.sendResponseHeaders(200, body.length);
      ex.getResponseBody().write(body);
      ex.close();
    });
    other.start();
    try (FakeOllama ollama = new FakeOllama();
        FakeOpenAi openAi = new FakeOpenAi()) {
      int ollamaPort = Integer.parseInt(ollama.url().replaceAll(".*:", ""));
      List<LocalServers.Found> found = new LocalServers(List.of(
              new LocalServers.Candidate(ModelServer.Kind.OLLAMA, ollamaPort, "Ollama"),
              new LocalServers.Candidate(ModelServer.Kind.OPENAI_COMPATIBLE, closed, "Jan"),
              new LocalServers.Candidate(
                  ModelServer.Kind.OPENAI_COMPATIBLE, other.getAddress().getPort(), "vLLM"),
              new LocalServers.Candidate(
                  ModelServer.Kind.OPENAI_COMPATIBLE, openAi.port(), "LM Studio")))
          .find();
      assertEquals(
          List.of(
              new LocalServers.Found(
                  ModelServer.Kind.OLLAMA,
                  "http://127.0.0.1:" + ollamaPort,
                  "Ollama (port " + ollamaPort + ")"),
              new LocalServers.Found(
                  ModelServer.Kind.OPENAI_COMPATIBLE,
                  openAi.url(),
                  "LM Studio (port " + openAi.port() + ")")),
          found);
    } finally {
      other.stop(0);
    }
  }
}
