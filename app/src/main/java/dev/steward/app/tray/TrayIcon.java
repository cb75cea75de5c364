package dev.steward.app.tray;

import java.awt.AWTException;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.GraphicsEnvironment;
import java.awt.MenuItem;
import java.awt.PopupMenu;
import java.awt.RenderingHints;
import java.awt.SystemTray;
import java.awt.image.BufferedImage;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Steward's icon in the desktop's tray, where there is one (a freedesktop system tray: KDE,
 * Xfce, Cinnamon, MATE, LXQt; GNOME only with an extension): Show Steward and Quit, and
 * activating the icon (a double-click, on most trays) shows the window. AWT's tray, beside JavaFX: JavaFX has none of its own.
 */
public final class TrayIcon {

  private final java.awt.TrayIcon icon;

  private TrayIcon(java.awt.TrayIcon icon) {
    this.icon = icon;
  }

  /**
   * Puts the icon in the tray; empty where there is no tray (no display, a headless run, or a
   * desktop without one). {@code show} and {@code quit} are called on AWT's thread.
   */
  public static Optional<TrayIcon> install(Runnable show, Runnable quit) {
    try {
      if (GraphicsEnvironment.isHeadless() || !SystemTray.isSupported()) return Optional.empty();
      PopupMenu menu = new PopupMenu();
      MenuItem open = new MenuItem("Show Steward");
      open.addActionListener(e -> show.run());
      MenuItem end = new MenuItem("Quit Steward");
      end.addActionListener(e -> quit.run());
      menu.add(open);
      menu.addSeparator();
      menu.add(end);
      SystemTray tray = SystemTray.getSystemTray();
      java.awt.Dimension size = tray.getTrayIconSize();
      java.awt.TrayIcon icon = new java.awt.TrayIcon(
          image(Math.max(16, Math.min(size.width, size.height))), "Steward", menu);
      icon.setImageAutoSize(true);
      icon.addActionListener(e -> show.run());
      tray.add(icon);
      return Optional.of(new TrayIcon(icon));
    } catch (AWTException
        | UnsupportedOperationException
        | SecurityException
        | java.awt.AWTError
        | LinkageError e) {
      // no tray here, or a Java without AWT's native parts (a headless JRE)
      return Optional.empty();
    }
  }

  /** The menu's entries, by label (for tests: the tray host's menu cannot be clicked in them). */
  public @Nullable MenuItem item(String label) {
    PopupMenu menu = icon.getPopupMenu();
    for (int i = 0; menu != null && i < menu.getItemCount(); i++) {
      if (label.equals(menu.getItem(i).getLabel())) return menu.getItem(i);
    }
    return null;
  }

  public void remove() {
    SystemTray.getSystemTray().remove(icon);
  }

  /** A rounded square in Steward's accent with an "S": drawn, so no image file is needed. */
  private static BufferedImage image(int size) {
    BufferedImage img = new BufferedImage(size, size, BufferedImage.TYPE_INT_ARGB);
    Graphics2D g = img.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setRenderingHint(
        RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
    g.setColor(new Color(0x09, 0x69, 0xda));
    g.fillRoundRect(1, 1, size - 2, size - 2, size / 3, size / 3);
    g.setColor(Color.WHITE);
    g.setStroke(new BasicStroke(1));
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, Math.round(size * 0.7f)));
    java.awt.FontMetrics m = g.getFontMetrics();
    g.drawString("S", (size - m.stringWidth("S")) / 2, (size - m.getHeight()) / 2 + m.getAscent());
    g.dispose();
    return img;
  }
}
