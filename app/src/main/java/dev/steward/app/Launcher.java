package dev.steward.app;

import javafx.application.Application;

/**
 * The app's entry point. It does not extend {@link Application}: started from the class path, a
 * main class that does would fail with "JavaFX runtime components are missing".
 */
public final class Launcher {

  /** When main began; the window logs how long after it appeared (benchmarks time the process from outside). */
  static final long STARTED = System.nanoTime();

  private Launcher() {}

  public static void main(String[] args) {
    int status = 1;
    try {
      Application.launch(StewardApp.class, args);
      status = 0;
    } finally {
      // The window has ended: end the process too, whatever threads a library left (AWT's, for
      // the tray icon, would outlive the window).
      System.exit(status);
    }
  }
}
