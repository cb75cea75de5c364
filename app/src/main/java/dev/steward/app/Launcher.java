package dev.steward.app;

import javafx.application.Application;

/**
 * The app's entry point. It does not extend {@link Application}: started from the class path, a
 * main class that does would fail with "JavaFX runtime components are missing".
 */
public final class Launcher {

  private Launcher() {}

  public static void main(String[] args) {
    Application.launch(StewardApp.class, args);
  }
}
