package dev.steward.service.util;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class PrivilegeTest {

  @Test
  void the_effective_id_decides_not_the_real_one() {
    assertEquals(0, Privilege.effectiveUid(List.of("Name:\tjava", "Uid:\t1000\t0\t0\t0")));
    assertEquals(1000, Privilege.effectiveUid(List.of("Uid:\t0\t1000\t1000\t1000")));
  }

  @Test
  void lines_that_do_not_say_give_no_id() {
    assertEquals(-1, Privilege.effectiveUid(List.of("Name:\tjava")));
    assertEquals(-1, Privilege.effectiveUid(List.of("Uid:\t1000")));
    assertEquals(-1, Privilege.effectiveUid(List.of("Uid:\tx\ty")));
  }

  @Test
  void this_process_is_asked_as_the_kernel_sees_it() throws Exception {
    long uid = Privilege.effectiveUid(
        java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status")));
    Process id = new ProcessBuilder("id", "-u").start();
    long shell = Long.parseLong(new String(id.getInputStream().readAllBytes()).trim());
    assertEquals(shell, uid);
    assertEquals(shell == 0, Privilege.root());
  }
}
