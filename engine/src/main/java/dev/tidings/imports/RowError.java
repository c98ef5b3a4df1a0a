package dev.tidings.imports;

/** A rejected row: the line where its record starts (1 = the first line of the file) and why. */
public record RowError(long line, String reason) {}
