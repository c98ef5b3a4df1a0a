package dev.tidings.imports;

import static java.util.Objects.requireNonNull;

/** One field of an import format, named as in the format and the JSON API; a CSV header must name every required one. */
public record FieldSpec(String name, FieldType type, boolean required) {
  public FieldSpec {
    requireNonNull(name, "name");
    requireNonNull(type, "type");
  }

  public static FieldSpec required(String name, FieldType type) {
    return new FieldSpec(name, type, true);
  }

  public static FieldSpec optional(String name, FieldType type) {
    return new FieldSpec(name, type, false);
  }
}
