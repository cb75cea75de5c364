package dev.steward.app.settings;

import dev.steward.app.agent.LocalServers;
import dev.steward.app.agent.ModelCatalog;
import dev.steward.app.agent.ModelServer;
import java.util.List;

/** What Settings asks about model servers: one server's models, and the servers running here. */
public interface ModelServers {

  /** The server's models; throws with a message for the user when it cannot be reached. */
  List<ModelCatalog.Offered> models(ModelServer server);

  /** The model servers answering on their usual ports on this machine. */
  List<LocalServers.Found> running();
}
