package dev.tidings.imports;

/**
 * One chunk of valid rows, encoded as COPY text for the target table ({@code bytes[0..size)}), with the file
 * line of each row and whether two of its rows share a last-wins key.
 */
@SuppressWarnings("ArrayRecordComponent") // COPY bytes handed over, never copied or compared
record Chunk(byte[] bytes, int size, long[] lines, int rows, boolean duplicateKeys) {}
