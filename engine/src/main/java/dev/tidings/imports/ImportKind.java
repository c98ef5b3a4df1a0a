package dev.tidings.imports;

import static java.util.Objects.requireNonNull;

/** One importable kind: its name, how rows become records, and where the records go. */
public record ImportKind<T>(String name, RowMapper<T> mapper, Staging<T> staging) {
  public ImportKind {
    requireNonNull(name, "name");
    requireNonNull(mapper, "mapper");
    requireNonNull(staging, "staging");
  }
}
