package dev.steward.app.hotkey;

import com.github.kwhat.jnativehook.GlobalScreen;
import com.github.kwhat.jnativehook.NativeHookException;
import com.github.kwhat.jnativehook.keyboard.NativeKeyEvent;
import com.github.kwhat.jnativehook.keyboard.NativeKeyListener;
import java.util.Locale;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The global hotkey (jnativehook). Never registered without a display (jnativehook would fail
 * noisily and Xlib would turn the exit code into 1); its logging is silenced; when the platform
 * refuses (no X11, Wayland without XWayland) the status says why and the app carries on.
 */
public final class GlobalHotkey implements AutoCloseable {

  // java.util.logging holds loggers weakly: keep this one so its level stays set.
  private static final Logger JNATIVEHOOK =
      Logger.getLogger(GlobalScreen.class.getPackage().getName());

  /** Whether the hotkey works, and if not, why. */
  public record Status(boolean active, String message) {}

  private final @org.jspecify.annotations.Nullable NativeKeyListener listener;
  private final Status status;

  private GlobalHotkey(
      @org.jspecify.annotations.Nullable NativeKeyListener listener, Status status) {
    this.listener = listener;
    this.status = status;
  }

  /** Registers {@code combination}; {@code toggle} runs on jnativehook's thread when it is pressed. */
  public static GlobalHotkey register(
      String combination, Runnable toggle, Map<String, String> env, String osName) {
    JNATIVEHOOK.setLevel(Level.OFF);
    JNATIVEHOOK.setUseParentHandlers(false);
    KeyCombination keys;
    try {
      keys = KeyCombination.parse(combination);
    } catch (IllegalArgumentException e) {
      return new GlobalHotkey(
          null, new Status(false, "The hotkey setting is not usable: " + e.getMessage()));
    }
    boolean linux = osName.toLowerCase(Locale.ROOT).contains("linux");
    if (linux && blank(env.get("DISPLAY"))) {
      String why = blank(env.get("WAYLAND_DISPLAY"))
          ? "there is no display"
          : "Wayland without XWayland offers no global keys";
      return new GlobalHotkey(
          null,
          new Status(false, "The global hotkey is off: " + why + ". Steward works without it."));
    }
    try {
      if (!GlobalScreen.isNativeHookRegistered()) GlobalScreen.registerNativeHook();
    } catch (NativeHookException | UnsatisfiedLinkError e) {
      return new GlobalHotkey(
          null,
          new Status(
              false,
              "The system refused the global hotkey (" + e.getMessage()
                  + "). Steward works without it."));
    }
    NativeKeyListener listener = new NativeKeyListener() {
      @Override
      public void nativeKeyPressed(NativeKeyEvent e) {
        if (keys.matches(e)) toggle.run();
      }
    };
    GlobalScreen.addNativeKeyListener(listener);
    return new GlobalHotkey(
        listener, new Status(true, keys.text() + " shows or hides Steward from anywhere."));
  }

  private static boolean blank(@org.jspecify.annotations.Nullable String s) {
    return s == null || s.isBlank();
  }

  public Status status() {
    return status;
  }

  @Override
  public void close() {
    if (listener == null) return;
    GlobalScreen.removeNativeKeyListener(listener);
    try {
      GlobalScreen.unregisterNativeHook();
    } catch (NativeHookException e) {
      // the process is ending anyway
    }
  }
}
