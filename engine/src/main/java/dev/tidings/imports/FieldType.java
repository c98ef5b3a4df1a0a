package dev.tidings.imports;

/** How a field is written in JSON; in CSV every field is text and the row mapper parses it. */
public enum FieldType {
  TEXT,
  DECIMAL,
  INTEGER,
  BOOLEAN,
  /** A JSON object of strings; in CSV its JSON text in one cell. */
  STRING_MAP
}
