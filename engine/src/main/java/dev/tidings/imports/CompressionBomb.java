package dev.tidings.imports;

/**
 * Gzip-compressed content that expands far more than real data does ({@link
 * ImportLimits#MAX_GZIP_EXPANSION}): refused as it is read, before the parser spends the time and the
 * memory it would take. Unchecked, so that it passes the readers and parsers between the stream and the
 * row source unchanged, and becomes a {@link MalformedFileException} with the row it stopped at.
 */
final class CompressionBomb extends RuntimeException {
  private static final long serialVersionUID = 1L;

  CompressionBomb(long expanded, long compressed) {
    super(
        "the gzip expands more than " + ImportLimits.MAX_GZIP_EXPANSION + " times ("
            + expanded + " bytes from the first " + compressed
            + " compressed): refused as a compression bomb",
        null,
        false,
        false);
  }
}
