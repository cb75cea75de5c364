package dev.steward.app.agent;

import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/** Which folders "Always allow here" covers for a call: the folder of each path it touches, the narrowest there is. */
public final class GrantFolders {

  private GrantFolders() {}

  public static List<String> of(@Nullable List<String> paths) {
    Set<String> folders = new LinkedHashSet<>();
    for (String path : paths == null ? List.<String>of() : paths) {
      Path parent = Path.of(path).getParent();
      if (parent != null) folders.add(parent.toString());
    }
    return List.copyOf(folders);
  }
}
