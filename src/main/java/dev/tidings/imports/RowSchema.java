package dev.tidings.imports;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/** The fields of one kind of row, in a fixed order so that rows can hold their values in an array. */
public final class RowSchema {
  private final List<FieldSpec> fields;
  private final Map<String, Integer> indexByName;

  public RowSchema(List<FieldSpec> fields) {
    this.fields = List.copyOf(fields);
    this.indexByName = new HashMap<>();
    for (int i = 0; i < this.fields.size(); i++) {
      if (indexByName.put(this.fields.get(i).name(), i) != null) {
        throw new IllegalArgumentException(
            "duplicate field " + this.fields.get(i).name());
      }
    }
  }

  public static RowSchema of(FieldSpec... fields) {
    return new RowSchema(List.of(fields));
  }

  public List<FieldSpec> fields() {
    return fields;
  }

  public int size() {
    return fields.size();
  }

  public FieldSpec field(int index) {
    return fields.get(index);
  }

  public OptionalInt indexOf(String name) {
    Integer index = indexByName.get(name);
    return index == null ? OptionalInt.empty() : OptionalInt.of(index);
  }

  public List<String> names() {
    return fields.stream().map(FieldSpec::name).toList();
  }
}
