package dev.steward.protocol.json;

/**
 * A byte stream that a value of known size can ask for room in before writing itself in pieces,
 * so the stream grows once rather than doubling piece after piece (a listing is megabytes).
 */
public interface SizedOutput {

  /** Makes room for at least {@code bytes} more; a hint, never a limit. */
  void makeRoom(long bytes);
}
