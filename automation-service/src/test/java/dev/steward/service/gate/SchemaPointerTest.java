package dev.steward.service.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SchemaPointerTest {

  @ParameterizedTest
  @CsvSource({
    "$, ''",
    "$.path, /path",
    "$.a.b, /a/b",
    "$.a[0], /a/0",
    "$['x/y'], /x~1y",
    "/already, /already"
  })
  void instance_locations_become_json_pointers(String location, String pointer) {
    assertEquals(pointer, SchemaCheck.toPointer(location));
  }
}
