package dev.tidings.imports;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * The fields of one kind of row, in a fixed order so that rows can hold their values in an array. Fields
 * are named in camelCase, as in JSON; a CSV header may also spell a field in snake_case ({@code imageUrl} or
 * {@code image_url}), as spreadsheets and database exports usually do.
 */
public final class RowSchema {
  private final List<FieldSpec> fields;
  private final Map<String, Integer> indexByName;
  private final Map<String, Integer> indexByColumn;

  RowSchema(List<FieldSpec> fields) {
    this.fields = List.copyOf(fields);
    this.indexByName = new HashMap<>();
    this.indexByColumn = new HashMap<>();
    for (int i = 0; i < this.fields.size(); i++) {
      String name = this.fields.get(i).name();
      if (indexByName.put(name, i) != null)
        throw new IllegalArgumentException("duplicate field " + name);
    }
    for (int i = 0; i < this.fields.size(); i++) {
      String name = this.fields.get(i).name();
      for (String column : List.of(name, snakeCase(name))) {
        Integer other = indexByColumn.put(column, i);
        if (other != null && other != i) {
          throw new IllegalArgumentException("column " + column + " would name both "
              + this.fields.get(other).name() + " and " + name);
        }
      }
    }
  }

  /** {@code imageUrl} -> {@code image_url}; a name without capitals stays as it is. */
  public static String snakeCase(String camelCase) {
    var snake = new StringBuilder(camelCase.length() + 4);
    for (int i = 0; i < camelCase.length(); i++) {
      char c = camelCase.charAt(i);
      if (Character.isUpperCase(c)) {
        if (i > 0) snake.append('_');
        snake.append(Character.toLowerCase(c));
      } else {
        snake.append(c);
      }
    }
    return snake.toString();
  }

  public static RowSchema of(FieldSpec... fields) {
    return new RowSchema(List.of(fields));
  }

  /** The fields in order, e.g. for a format that extends another by more fields. */
  public List<FieldSpec> fields() {
    return fields;
  }

  int size() {
    return fields.size();
  }

  FieldSpec field(int index) {
    return fields.get(index);
  }

  /** The field with this name, exactly as in JSON. */
  OptionalInt indexOf(String name) {
    Integer index = indexByName.get(name);
    return index == null ? OptionalInt.empty() : OptionalInt.of(index);
  }

  /** The field a CSV header cell names: its name or the name's snake_case spelling. */
  OptionalInt indexOfColumn(String column) {
    Integer index = indexByColumn.get(column);
    return index == null ? OptionalInt.empty() : OptionalInt.of(index);
  }

  List<String> names() {
    return fields.stream().map(FieldSpec::name).toList();
  }
}
