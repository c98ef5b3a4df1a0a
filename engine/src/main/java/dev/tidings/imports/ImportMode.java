package dev.tidings.imports;

/** What an invalid row does to the rest of the file. */
public enum ImportMode {
  /** Every valid row is imported, every invalid row is reported. The default. */
  VALID_ROWS,
  /** A single invalid row imports nothing; every invalid row is still reported. */
  ALL_OR_NOTHING
}
