package dev.steward.service.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.service.undo.UndoRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The build's check of every tool definition the packs ship: each schema is valid draft 2020-12
 * (against the meta-schema, offline), arguments are closed objects, and what a definition says of
 * its tool ({@code undoable}, {@code mutates}) is what the tool does.
 */
class ToolDefinitionsTest {

  private static final SchemaRegistry REGISTRY =
      SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
  private static final Schema META =
      REGISTRY.getSchema(SchemaLocation.of("https://json-schema.org/draft/2020-12/schema"));

  private static List<Tool> allTools() {
    PackContext context = new PackContext(
        () -> {
          throw new IllegalStateException("no policy in this test");
        },
        Path.of("/nonexistent-home"),
        Path.of("/nonexistent-data"),
        Map.of(),
        dev.steward.service.scope.HostResolver.system());
    List<ToolPack> packs = ToolPacks.load();
    try {
      return new ArrayList<>(ToolPacks.registry(packs, context).all());
    } finally {
      ToolPacks.close(packs);
    }
  }

  @Test
  void every_pack_on_the_class_path_is_found() {
    List<String> names = ToolPacks.load().stream().map(ToolPack::name).toList();
    assertTrue(
        names.containsAll(List.of("files", "desktop", "browser", "sample")), names.toString());
  }

  @Test
  void every_schema_is_valid_draft_2020_12() {
    for (Tool tool : allTools()) {
      ToolDefinition d = tool.definition();
      assertEquals(List.of(), errors(d.argsSchema()), d.name() + " args_schema");
      assertEquals(List.of(), errors(d.resultSchema()), d.name() + " result_schema");
      REGISTRY.getSchema(d.argsSchema()).validate(Json.object());
    }
  }

  @Test
  void the_meta_schema_check_catches_a_broken_schema() throws Exception {
    assertFalse(errors(Json.parse("{\"type\": 12}")).isEmpty());
    assertFalse(errors(Json.parse("{\"properties\": []}")).isEmpty());
  }

  @Test
  void arguments_are_closed_objects_and_every_property_has_a_type() {
    for (Tool tool : allTools()) {
      JsonNode args = tool.definition().argsSchema();
      assertEquals("object", args.path("type").asText(), tool.name());
      assertEquals(
          false,
          args.path("additionalProperties").asBoolean(true),
          tool.name() + ": unknown arguments must be refused");
      args.path("properties")
          .fields()
          .forEachRemaining(p -> assertTrue(
              p.getValue().has("type")
                  || p.getValue().has("enum")
                  || p.getValue().has("anyOf"),
              tool.name() + "/" + p.getKey() + " has no type"));
      assertFalse(tool.definition().description().isBlank(), tool.name());
    }
  }

  @Test
  void a_definition_says_undoable_exactly_when_its_tool_can_undo() throws Exception {
    for (Tool tool : allTools()) {
      boolean overrides =
          tool.getClass().getMethod("undo", UndoRecord.class, UndoContext.class).getDeclaringClass()
              != Tool.class;
      assertEquals(tool.definition().undoable(), overrides, tool.name());
      if (tool.definition().undoable())
        assertTrue(tool.mutates(), tool.name() + " undoes something it never changes");
    }
  }

  private static List<String> errors(JsonNode schema) {
    return META.validate(schema).stream().map(Error::toString).toList();
  }
}
