package dev.steward.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The compiler commands the service starts with name Steward's code by its name: a class or method
 * renamed leaves the command matching nothing, and the JVM says nothing of it.
 */
class JitOptionsTest {

  private static final Pattern COMMAND = Pattern.compile("-XX:CompileCommand=([^\\s\"]+)");
  private static final Pattern NAMED =
      Pattern.compile("[a-z]+,([A-Za-z0-9_.]+)::([A-Za-z0-9_]+)(,.*)?");

  @Test
  void the_launcher_and_the_package_name_the_same_methods_and_they_exist() throws Exception {
    Path repo = ServiceProcess.repo();
    List<String> launcher = commands(line(repo.resolve("steward"), "SERVICE_JVM_OPTS="));
    List<String> packaged = commands(line(
        repo.resolve("installer/src/main/package/steward-service.properties"), "java-options="));
    assertTrue(launcher.contains("quiet"), "without quiet the JVM prints each command on stdout");
    assertEquals(launcher, packaged, "./steward and the packaged steward-service differ");
    List<String> named = launcher.stream().filter(c -> !c.equals("quiet")).toList();
    assertFalse(named.isEmpty(), "./steward starts the service with no compile command");
    for (String command : named) {
      Matcher m = NAMED.matcher(command);
      assertTrue(m.matches(), command + " is not of the form option,class::method");
      Class<?> type = Class.forName(m.group(1));
      assertTrue(
          Arrays.stream(type.getDeclaredMethods()).anyMatch(x -> x.getName().equals(m.group(2))),
          command + " names no method");
    }
  }

  private static String line(Path file, String prefix) throws Exception {
    return Files.readAllLines(file).stream()
        .filter(l -> l.startsWith(prefix))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + prefix + " line in " + file));
  }

  private static List<String> commands(String options) {
    List<String> out = new ArrayList<>();
    Matcher m = COMMAND.matcher(options);
    while (m.find()) out.add(m.group(1));
    return out;
  }
}
