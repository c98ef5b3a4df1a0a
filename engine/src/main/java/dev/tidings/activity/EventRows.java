package dev.tidings.activity;

import static dev.tidings.Problems.toValidate;
import static dev.tidings.imports.FieldSpec.optional;
import static dev.tidings.imports.FieldSpec.required;
import static dev.tidings.imports.FieldType.DECIMAL;
import static dev.tidings.imports.FieldType.INTEGER;
import static dev.tidings.imports.FieldType.STRING_MAP;
import static dev.tidings.imports.FieldType.TEXT;

import dev.tidings.Problems;
import dev.tidings.imports.RowFields;
import dev.tidings.imports.RowMapper;
import dev.tidings.imports.RowSchema;
import java.util.Map;
import java.util.Optional;

/** The {@code events} format: fields of a CSV row, a JSON line or an API body, into an {@link ActivityEvent}. */
final class EventRows implements RowMapper<ActivityEvent> {
  static final EventRows INSTANCE = new EventRows();

  static final int USER_ID = 0;
  static final int TYPE = 1;
  static final int ITEM_ID = 2;
  static final int TIMESTAMP = 3;
  static final int EVENT_ID = 4;
  static final int QUANTITY = 5;
  static final int PRICE = 6;
  static final int SESSION_ID = 7;
  static final int ATTRIBUTES = 8;

  private static final RowSchema SCHEMA = RowSchema.of(
      required("userId", TEXT),
      required("type", TEXT),
      required("itemId", TEXT),
      required("timestamp", TEXT),
      optional("eventId", TEXT),
      optional("quantity", INTEGER),
      optional("price", DECIMAL),
      optional("sessionId", TEXT),
      optional("attributes", STRING_MAP));

  private EventRows() {}

  @Override
  public RowSchema schema() {
    return SCHEMA;
  }

  /** 1 when not given; a quantity below 1 is left for the record to report, so it is reported once. */
  private static int quantity(RowFields row, Problems problems) {
    Long given = row.integer(QUANTITY, problems);
    if (given == null) return 1;
    if (given == given.intValue()) return given.intValue();
    problems.add("quantity must be an integer >= 1, got " + given);
    return 1;
  }

  @Override
  public ActivityEvent map(RowFields row) {
    var problems = new Problems();
    var timestamp = row.instant(TIMESTAMP, problems);
    int quantity = quantity(row, problems);
    var price = row.decimal(PRICE, problems);
    Map<String, String> attributes = row.stringMap(ATTRIBUTES, problems);
    String typeText = row.text(TYPE);
    EventType type = typeText == null ? null : EventType.ofWire(typeText).orElse(null);
    if (typeText != null && type == null) {
      problems.add(
          "type must be view, click, add_to_cart, purchase, follow, open or email_click, got "
              + Problems.quote(typeText));
    }
    return problems.build(() -> new ActivityEvent(
        row.optionalText(EVENT_ID),
        toValidate(row.text(USER_ID)),
        toValidate(type),
        toValidate(row.text(ITEM_ID)),
        toValidate(timestamp),
        quantity,
        Optional.ofNullable(price),
        row.optionalText(SESSION_ID),
        attributes == null ? Map.of() : attributes));
  }
}
