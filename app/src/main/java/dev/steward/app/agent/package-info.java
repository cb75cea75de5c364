/**
 * The agent loop: the model over Ollama (langchain4j), the service's tools as tool
 * specifications, and every proposed call taken through preflight, approval and the gate.
 */
@NullMarked
package dev.steward.app.agent;

import org.jspecify.annotations.NullMarked;
