package dev.steward.app.hotkey;

import com.github.kwhat.jnativehook.NativeInputEvent;
import com.github.kwhat.jnativehook.keyboard.NativeKeyEvent;
import java.util.Locale;

/**
 * A global key combination as settings write it: modifiers then a key, e.g. {@code ctrl alt SPACE}
 * or {@code ctrl shift S}. The key is one of jnativehook's {@code VC_} names.
 */
public record KeyCombination(
    boolean ctrl, boolean alt, boolean shift, boolean meta, int keyCode, String text) {

  public static KeyCombination parse(String text) {
    boolean ctrl = false;
    boolean alt = false;
    boolean shift = false;
    boolean meta = false;
    Integer key = null;
    for (String part : text.trim().split("[\\s+]+")) {
      switch (part.toLowerCase(Locale.ROOT)) {
        case "ctrl", "control" -> ctrl = true;
        case "alt" -> alt = true;
        case "shift" -> shift = true;
        case "meta", "super", "cmd" -> meta = true;
        default -> {
          if (key != null) throw new IllegalArgumentException("\"" + text + "\" names two keys");
          key = keyCode(part);
        }
      }
    }
    if (key == null)
      throw new IllegalArgumentException("\"" + text + "\" names no key, e.g. ctrl alt SPACE");
    if (!ctrl && !alt && !meta)
      throw new IllegalArgumentException(
          "a global hotkey needs ctrl, alt or meta, or it would catch ordinary typing");
    return new KeyCombination(ctrl, alt, shift, meta, key, text.trim());
  }

  private static int keyCode(String name) {
    try {
      return NativeKeyEvent.class
          .getField("VC_" + name.toUpperCase(Locale.ROOT))
          .getInt(null);
    } catch (ReflectiveOperationException e) {
      throw new IllegalArgumentException("\"" + name + "\" is not a key name (SPACE, S, F5, …)");
    }
  }

  boolean matches(NativeKeyEvent e) {
    int m = e.getModifiers();
    return e.getKeyCode() == keyCode
        && ctrl == ((m & NativeInputEvent.CTRL_MASK) != 0)
        && alt == ((m & NativeInputEvent.ALT_MASK) != 0)
        && shift == ((m & NativeInputEvent.SHIFT_MASK) != 0)
        && meta == ((m & NativeInputEvent.META_MASK) != 0);
  }
}
