package dev.tidings.imports;

/** A chunk table whose rows are committed and ready to be checked and merged. */
record StagedChunk(String table, long rows, boolean duplicateKeys) {}
