package dev.steward.service.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.steward.protocol.tool.ToolErrorCodes;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class OneLookTest {

  @Test
  void within_a_check_each_thing_is_read_once_and_outside_it_every_time() throws Exception {
    AtomicInteger reads = new AtomicInteger();
    OneLook.Read<String> read = () -> "version " + reads.incrementAndGet();
    String[] seen = OneLook.during(() -> {
      try {
        return new String[] {
          OneLook.of("event a", String.class, read),
          OneLook.of("event a", String.class, read),
          OneLook.of("event b", String.class, read),
          OneLook.during(() -> of("event a", read)),
        };
      } catch (ToolFailure e) {
        throw new AssertionError(e);
      }
    });
    assertEquals("version 1", seen[0]);
    assertEquals("version 1", seen[1], "the same read for the same thing");
    assertEquals("version 2", seen[2], "another thing is read apart");
    assertEquals("version 1", seen[3], "a check within a check shares its reads");
    assertEquals("version 3", OneLook.of("event a", String.class, read), "a run reads afresh");
    assertEquals("version 4", OneLook.of("event a", String.class, read));
  }

  @Test
  void a_read_that_fails_is_not_kept() {
    AtomicInteger reads = new AtomicInteger();
    OneLook.Read<String> read = () -> {
      if (reads.incrementAndGet() == 1) throw new ToolFailure(ToolErrorCodes.UNAVAILABLE, "down");
      return "there";
    };
    String second = OneLook.during(() -> {
      assertThrows(ToolFailure.class, () -> OneLook.of("x", String.class, read));
      return of("x", read);
    });
    assertEquals("there", second);
    assertEquals(2, reads.get());
  }

  @Test
  void a_check_that_throws_keeps_nothing_after_it() throws Exception {
    AtomicInteger reads = new AtomicInteger();
    OneLook.Read<Integer> read = reads::incrementAndGet;
    assertThrows(
        IllegalStateException.class,
        () -> OneLook.during(() -> {
          try {
            OneLook.of("x", Integer.class, read);
          } catch (ToolFailure e) {
            throw new AssertionError(e);
          }
          throw new IllegalStateException("the check broke");
        }));
    assertEquals(2, OneLook.of("x", Integer.class, read), "read afresh after it");
  }

  private static String of(String key, OneLook.Read<String> read) {
    try {
      return OneLook.of(key, String.class, read);
    } catch (ToolFailure e) {
      throw new AssertionError(e);
    }
  }
}
