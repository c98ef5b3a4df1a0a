package dev.tidings.imports;

import static dev.tidings.imports.FieldSpec.optional;
import static dev.tidings.imports.FieldSpec.required;
import static dev.tidings.imports.FieldType.TEXT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RowSchemaTest {
  private final RowSchema schema =
      RowSchema.of(required("id", TEXT), optional("imageUrl", TEXT), optional("eventId", TEXT));

  @Test
  void a_column_is_a_field_name_or_its_snake_case_spelling() {
    assertThat(schema.indexOfColumn("id")).hasValue(0);
    assertThat(schema.indexOfColumn("imageUrl")).hasValue(1);
    assertThat(schema.indexOfColumn("image_url")).hasValue(1);
    assertThat(schema.indexOfColumn("event_id")).hasValue(2);
    assertThat(schema.indexOfColumn("imageurl")).isEmpty();
    assertThat(schema.indexOfColumn("Image_Url")).isEmpty();
  }

  @Test
  void json_names_are_exact() {
    assertThat(schema.indexOf("imageUrl")).hasValue(1);
    assertThat(schema.indexOf("image_url")).isEmpty();
  }

  @Test
  void fields_whose_spellings_collide_are_a_programming_error() {
    assertThatThrownBy(() -> RowSchema.of(optional("imageUrl", TEXT), optional("image_url", TEXT)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("column image_url would name both imageUrl and image_url");
  }
}
