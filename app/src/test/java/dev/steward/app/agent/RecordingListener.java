package dev.steward.app.agent;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** Records what a turn reported. */
final class RecordingListener implements TurnListener {
  final List<String> events = new CopyOnWriteArrayList<>();
  final Map<String, CallUpdate> last = new ConcurrentHashMap<>();
  final StringBuilder text = new StringBuilder();

  @Override
  public void assistantStarted() {
    events.add("start");
  }

  @Override
  public synchronized void assistantToken(String t) {
    text.append(t);
  }

  @Override
  public void assistantFinished() {
    events.add("finish");
  }

  @Override
  public void assistantRewritten(String t) {
    events.add("rewritten " + t);
  }

  @Override
  public void callProposed(ProposedCall call) {
    events.add("proposed " + call.toolName());
  }

  @Override
  public void callUpdated(CallUpdate update) {
    last.put(update.callId(), update);
    events.add(update.state() + " " + update.callId());
  }

  @Override
  public void modelFailed(String t) {
    events.add("modelFailed " + t);
  }

  @Override
  public void notice(String t) {
    events.add("notice " + t);
  }

  @Override
  public void error(String t) {
    events.add("error " + t);
  }

  @Override
  public void turnFinished() {
    events.add("done");
  }
}
