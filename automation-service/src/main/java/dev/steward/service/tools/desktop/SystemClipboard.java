package dev.steward.service.tools.desktop;

import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.tools.ToolFailure;
import java.awt.GraphicsEnvironment;
import java.awt.HeadlessException;
import java.awt.Toolkit;
import java.awt.datatransfer.Clipboard;
import java.awt.datatransfer.DataFlavor;
import java.awt.datatransfer.StringSelection;
import java.awt.datatransfer.UnsupportedFlavorException;
import java.io.IOException;

/** The desktop's clipboard (text), through AWT — the one place the service touches AWT for it. */
final class SystemClipboard {

  private SystemClipboard() {}

  static String read() throws ToolFailure {
    Clipboard c = clipboard();
    for (int attempt = 0; ; attempt++) {
      try {
        if (!c.isDataFlavorAvailable(DataFlavor.stringFlavor)) return "";
        return (String) c.getData(DataFlavor.stringFlavor);
      } catch (IllegalStateException e) {
        busy(attempt); // another program holds the clipboard for a moment
      } catch (UnsupportedFlavorException e) {
        return "";
      } catch (IOException e) {
        throw new ToolFailure(
            ToolErrorCodes.EXECUTION_ERROR, "the clipboard could not be read: " + e.getMessage());
      }
    }
  }

  static boolean holdsText() throws ToolFailure {
    try {
      return clipboard().isDataFlavorAvailable(DataFlavor.stringFlavor);
    } catch (IllegalStateException e) {
      return true; // unknown: treat as holding something, so replacing it asks first
    }
  }

  static void write(String text) throws ToolFailure {
    Clipboard c = clipboard();
    StringSelection selection = new StringSelection(text);
    for (int attempt = 0; ; attempt++) {
      try {
        c.setContents(selection, selection);
        return;
      } catch (IllegalStateException e) {
        busy(attempt);
      }
    }
  }

  private static Clipboard clipboard() throws ToolFailure {
    if (GraphicsEnvironment.isHeadless()) {
      throw new ToolFailure(
          ToolErrorCodes.UNAVAILABLE,
          "there is no display, so there is no clipboard (the service runs without a desktop session)");
    }
    try {
      return Toolkit.getDefaultToolkit().getSystemClipboard();
    } catch (HeadlessException | java.awt.AWTError e) {
      throw new ToolFailure(
          ToolErrorCodes.UNAVAILABLE, "the clipboard is not available: " + e.getMessage());
    }
  }

  private static void busy(int attempt) throws ToolFailure {
    if (attempt >= 10)
      throw new ToolFailure(ToolErrorCodes.UNAVAILABLE, "the clipboard stayed busy; try again");
    try {
      Thread.sleep(20L * (attempt + 1));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ToolFailure(ToolErrorCodes.CANCELLED, "the call was cancelled");
    }
  }
}
