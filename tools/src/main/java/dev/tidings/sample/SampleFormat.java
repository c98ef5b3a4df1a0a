package dev.tidings.sample;

/** The two bulk-import formats of docs/import-formats.md. */
public enum SampleFormat {
  CSV("csv"),
  JSONL("jsonl");

  private final String extension;

  SampleFormat(String extension) {
    this.extension = extension;
  }

  public String extension() {
    return extension;
  }
}
