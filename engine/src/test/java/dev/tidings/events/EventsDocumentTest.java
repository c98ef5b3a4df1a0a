package dev.tidings.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.Json;
import dev.tidings.testing.Repository;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * docs/events.md documents every event type with a JSON Schema of its data, and each schema says what
 * the type's record is: its properties are the record's components, in order, each of the JSON type
 * the component is written as, and all required; a type, a component or a changed type without its
 * schema fails here. openapi.json has the same schemas, and the envelope's attributes.
 */
class EventsDocumentTest {
  private static final Pattern JSON_BLOCK = Pattern.compile("(?s)```json\\n(.*?)```");
  private static final String DRAFT = "https://json-schema.org/draft/2020-12/schema";
  private static final Map<CloudEventType, JsonNode> schemas = new EnumMap<>(CloudEventType.class);
  private static final List<String> problems = new ArrayList<>();
  private static final List<String> titles = new ArrayList<>();

  @BeforeAll
  static void read() throws IOException {
    String page = Files.readString(Repository.file("docs/events.md"));
    var blocks = JSON_BLOCK.matcher(page);
    while (blocks.find()) {
      JsonNode block = Json.MAPPER.readTree(blocks.group(1));
      if (!block.has("$schema")) continue;
      String title = block.path("title").asString();
      titles.add(title);
      var type = CloudEventType.named(title);
      if (type.isEmpty()) problems.add("a schema for " + title + ", which is no event type");
      else if (schemas.put(type.get(), block) != null) problems.add("two schemas for " + title);
    }
  }

  @Test
  void every_type_has_one_schema_and_every_schema_a_type() {
    assertThat(problems).isEmpty();
    assertThat(schemas.keySet()).containsExactlyInAnyOrder(CloudEventType.values());
    assertThat(titles)
        .as("the schemas in the order GET /api/v1/events/types lists the types")
        .containsExactlyElementsOf(
            Arrays.stream(CloudEventType.values()).map(CloudEventType::typeName).toList());
  }

  @Test
  void each_schema_has_the_properties_of_its_record_all_required() {
    for (var entry : schemas.entrySet()) {
      JsonNode schema = entry.getValue();
      List<String> components = Arrays.stream(entry.getKey().record().getRecordComponents())
          .map(RecordComponent::getName)
          .toList();
      String type = entry.getKey().typeName();
      assertThat(schema.path("$schema").asString()).as(type).isEqualTo(DRAFT);
      assertThat(schema.path("type").asString()).as(type).isEqualTo("object");
      assertThat(schema.path("properties").propertyNames())
          .as("the properties of %s", type)
          .containsExactlyElementsOf(components);
      assertThat(texts(schema.path("required")))
          .as("the required properties of %s", type)
          .containsExactlyElementsOf(components);
    }
  }

  @Test
  void each_property_has_the_json_type_its_component_is_written_as() {
    for (var entry : schemas.entrySet()) {
      JsonNode properties = entry.getValue().path("properties");
      for (RecordComponent component : entry.getKey().record().getRecordComponents()) {
        JsonNode property = properties.path(component.getName());
        String where = entry.getKey().typeName() + "." + component.getName();
        assertThat(property.path("description").asString()).as(where).isNotBlank();
        String json = jsonType(component);
        boolean nullable = component.getAnnotatedType().isAnnotationPresent(Nullable.class);
        if (nullable)
          assertThat(texts(property.path("type"))).as(where).containsExactly(json, "null");
        else assertThat(property.path("type").asString()).as(where).isEqualTo(json);
        if (component.getType() == Instant.class)
          assertThat(property.path("format").asString()).as(where).isEqualTo("date-time");
      }
    }
  }

  @Test
  void the_openapi_document_has_the_same_schema_of_each_type_and_the_envelope() throws IOException {
    JsonNode document;
    try (InputStream in = EventsDocumentTest.class.getResourceAsStream("/web/openapi.json")) {
      document = Json.MAPPER.readTree(in);
    }
    JsonNode components = document.path("components").path("schemas");
    for (var entry : schemas.entrySet()) {
      ObjectNode expected = (ObjectNode) entry.getValue().deepCopy();
      expected.remove("$schema");
      assertThat(components.path(entry.getKey().typeName()))
          .as("components.schemas of openapi.json: %s as docs/events.md has it", entry.getKey())
          .isEqualTo(expected);
    }
    JsonNode envelope = components.path("CloudEvent");
    assertThat(texts(envelope.path("properties").path("type").path("enum")))
        .containsExactlyElementsOf(
            Arrays.stream(CloudEventType.values()).map(CloudEventType::typeName).toList());
    JsonNode written = new CloudEvent(
            "id-1",
            1,
            CloudEventType.ERASED,
            "s-1",
            Instant.parse("2026-03-01T10:15:30Z"),
            Json.MAPPER.createObjectNode())
        .json();
    assertThat(envelope.path("properties").propertyNames())
        .as("the envelope's attributes")
        .containsExactlyInAnyOrderElementsOf(written.propertyNames());
    assertThat(texts(envelope.path("required")))
        .containsExactlyInAnyOrderElementsOf(written.propertyNames());
  }

  /** The schema's word for how {@code Json.MAPPER} writes the component's type. */
  private static String jsonType(RecordComponent component) {
    Class<?> type = component.getType();
    if (type == String.class || type == Instant.class) return "string";
    if (type == long.class || type == int.class) return "integer";
    if (type == BigDecimal.class) return "number";
    throw new AssertionError(component + " is of a type this test does not know: " + type);
  }

  @Test
  void a_record_is_written_with_exactly_its_components() throws ReflectiveOperationException {
    for (CloudEventType type : CloudEventType.values()) {
      RecordComponent[] components = type.record().getRecordComponents();
      Object[] values = new Object[components.length];
      Class<?>[] types = new Class<?>[components.length];
      for (int at = 0; at < components.length; at++) {
        types[at] = components[at].getType();
        values[at] = sample(types[at]);
      }
      DomainEvent event = type.record().getDeclaredConstructor(types).newInstance(values);
      JsonNode written = Json.MAPPER.valueToTree(event);
      assertThat(written.propertyNames())
          .as("%s as written", type.typeName())
          .containsExactlyInAnyOrderElementsOf(
              schemas.get(type).path("properties").propertyNames());
      for (String name : written.propertyNames()) {
        String expected =
            schemas.get(type).path("properties").path(name).path("type").isArray()
                ? "string"
                : schemas.get(type).path("properties").path(name).path("type").asString();
        String actual = written.get(name).isString()
            ? "string"
            : written.get(name).isIntegralNumber() ? "integer" : "number";
        assertThat(actual).as("%s.%s as written", type.typeName(), name).isEqualTo(expected);
      }
    }
  }

  private static Object sample(Class<?> type) {
    if (type == String.class) return "x";
    if (type == Instant.class) return Instant.parse("2026-03-01T10:15:30Z");
    if (type == long.class) return 7L;
    if (type == int.class) return 3;
    if (type == BigDecimal.class) return new BigDecimal("19.90");
    throw new AssertionError("no sample of " + type);
  }

  private static List<String> texts(JsonNode array) {
    List<String> texts = new ArrayList<>();
    array.forEach(element -> texts.add(element.asString()));
    return texts;
  }
}
