package dev.tidings.imports;

import dev.tidings.InvalidInputException;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.zip.GZIPInputStream;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.postgresql.PGConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.postgresql.copy.PGCopyOutputStream;

/**
 * Streams a CSV or JSON Lines file (optionally gzip-compressed) into PostgreSQL: rows are parsed and
 * validated one at a time and COPYed into a temporary staging table, then checked and merged into the
 * real tables with set-based SQL, all in one transaction. Memory stays flat whatever the file size: no
 * row is kept after it was written to COPY, and only the first {@value ImportLimits#MAX_REPORTED_ERRORS}
 * row errors are kept.
 *
 * <h2>What happens to bad rows</h2>
 * <ul>
 *   <li>{@link ImportMode#VALID_ROWS} (default): every valid row is imported and every invalid row is
 *       reported with its line (the line where its record starts) and the reason; none is dropped silently.
 *   <li>{@link ImportMode#ALL_OR_NOTHING}: one invalid row imports nothing; all invalid rows are still reported.
 *   <li>In both modes a malformed file (empty, no header, an unknown or missing required column in the
 *       header, broken CSV quoting, text that is not UTF-8) imports nothing and the report says why
 *       ({@link ImportReport#failure()}); an I/O or database failure imports nothing and throws
 *       {@link ImportFailedException}. Either way the transaction is rolled back.
 *   <li>Rows that are valid alone but not against the database (a follow of an unknown subscriber, an
 *       email that belongs to another subscriber) are found set-based after the COPY and count as invalid.
 *   <li>Several rows with the same key in one file: the last valid one wins.
 * </ul>
 */
public final class BulkImporter {
  private static final Logger LOG = LoggerFactory.getLogger(BulkImporter.class);
  private final Jdbi jdbi;
  private final InstantSource clock;

  public BulkImporter(Jdbi jdbi, InstantSource clock) {
    this.jdbi = jdbi;
    this.clock = clock;
  }

  /** Imports a file; its format comes from its extension (.csv, .jsonl, .ndjson, each optionally .gz). */
  public <T> ImportReport run(ImportKind<T> kind, Path file, ImportOptions options) {
    Format format = Format.of(file);
    try (InputStream in = Files.newInputStream(file)) {
      return run(kind, in, format, options);
    } catch (IOException e) {
      throw new ImportFailedException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  /** Imports from a stream (e.g. a request body); gzip-compressed content is recognised by itself. */
  public <T> ImportReport run(ImportKind<T> kind, InputStream in, Format format, ImportOptions options) {
    long started = System.nanoTime();
    Instant now = clock.instant();
    var errors = new ErrorLog();
    try (Handle handle = jdbi.open()) {
      handle.begin();
      try {
        handle.execute("SET LOCAL work_mem = '256MB'");
        handle.execute(kind.staging().createTable());
        Counts counts = copyRows(kind, handle, in, format, options, errors);
        long copied = System.nanoTime();
        handle.execute("ANALYZE " + Staging.TABLE);
        kind.staging().check(handle);
        long refused = collectDatabaseRejections(handle, errors);
        long checked = System.nanoTime();
        long rejected = counts.rejected() + refused;
        if (options.mode() == ImportMode.ALL_OR_NOTHING && rejected > 0) {
          handle.rollback();
          return report(kind, counts.read(), 0, 0, rejected, errors, false, Optional.empty(), started);
        }
        long ignored = kind.staging().merge(handle, now);
        long merged = System.nanoTime();
        handle.commit();
        LOG.debug("import of {}: parse+copy {} ms, check {} ms, merge {} ms, commit {} ms", kind.name(),
            (copied - started) / 1_000_000, (checked - copied) / 1_000_000, (merged - checked) / 1_000_000,
            (System.nanoTime() - merged) / 1_000_000);
        long imported = counts.valid() - refused - ignored;
        return report(kind, counts.read(), imported, ignored, rejected, errors, true, Optional.empty(), started);
      } catch (MalformedFileException e) {
        handle.rollback();
        errors.add(e.line(), e.getMessage());
        return report(kind, errors.seen(), 0, 0, 0, errors, false, Optional.of(e.getMessage()), started);
      } catch (IOException | SQLException | RuntimeException e) {
        rollbackQuietly(handle);
        if (e instanceof InvalidInputException invalid) throw invalid;
        throw new ImportFailedException("import of " + kind.name() + " failed, nothing was imported: " + rootMessage(e), e);
      }
    }
  }

  private record Counts(long read, long valid, long rejected) {}

  private <T> Counts copyRows(ImportKind<T> kind, Handle handle, InputStream in, Format format, ImportOptions options,
      ErrorLog errors) throws IOException, SQLException {
    RowMapper<T> mapper = kind.mapper();
    Staging<T> staging = kind.staging();
    PGConnection pg = handle.getConnection().unwrap(PGConnection.class);
    var copy = new PGCopyOutputStream(pg, staging.copy(), 256 * 1024);
    long read = 0;
    long valid = 0;
    long rejected = 0;
    try (RowSource source = open(in, format, mapper.schema())) {
      var writer = new CopyRowWriter(copy);
      var fields = new RowFields(mapper.schema());
      while (next(source, fields, read)) {
        read++;
        errors.seen(read);
        String problem = source.problem();
        if (problem == null) {
          try {
            T row = mapper.map(fields);
            staging.write(row, source.line(), writer);
            writer.endRow();
            valid++;
          } catch (InvalidInputException e) {
            problem = String.join("; ", e.problems());
          }
        }
        if (problem != null) {
          rejected++;
          errors.add(source.line(), problem);
        }
        if (read % ImportLimits.PROGRESS_EVERY == 0) options.progress().accept(read);
      }
      writer.flushBuffer();
      copy.endCopy();
      options.progress().accept(read);
      return new Counts(read, valid, rejected);
    } finally {
      if (copy.isActive()) copy.cancelCopy();
    }
  }

  private static boolean next(RowSource source, RowFields fields, long read) throws IOException {
    try {
      return source.next(fields);
    } catch (CharacterCodingException e) {
      throw new MalformedFileException(source.line(), "the file is not valid UTF-8 (after data row " + read + ")");
    }
  }

  private static long collectDatabaseRejections(Handle handle, ErrorLog errors) {
    long count = handle.createQuery("SELECT count(*) FROM " + Staging.TABLE + " WHERE problem IS NOT NULL")
        .mapTo(Long.class).one();
    if (count > 0) {
      handle.createQuery("SELECT line, problem FROM " + Staging.TABLE + " WHERE problem IS NOT NULL ORDER BY line LIMIT :n")
          .bind("n", ImportLimits.MAX_REPORTED_ERRORS)
          .map((rs, ctx) -> new RowError(rs.getLong(1), rs.getString(2)))
          .forEach(error -> errors.add(error.line(), error.reason()));
      errors.count(count - Math.min(count, ImportLimits.MAX_REPORTED_ERRORS));
    }
    return count;
  }

  static RowSource open(InputStream raw, Format format, RowSchema schema) throws IOException {
    Reader reader = reader(raw);
    return switch (format) {
      case CSV -> new CsvRowSource(reader, schema);
      case JSON_LINES -> new JsonLinesRowSource(reader);
    };
  }

  /** UTF-8 text, gunzipped when the content starts with gzip's magic number, a byte order mark dropped. */
  private static Reader reader(InputStream raw) throws IOException {
    var in = new BufferedInputStream(raw, 64 * 1024);
    in.mark(2);
    int first = in.read();
    int second = in.read();
    in.reset();
    InputStream decoded = in;
    if (first == 0x1f && second == 0x8b) decoded = new BufferedInputStream(new GZIPInputStream(in, 64 * 1024), 64 * 1024);
    decoded.mark(3);
    byte[] bom = decoded.readNBytes(3);
    if (!(bom.length == 3 && (bom[0] & 0xFF) == 0xEF && (bom[1] & 0xFF) == 0xBB && (bom[2] & 0xFF) == 0xBF)) decoded.reset();
    var decoder = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    return new InputStreamReader(decoded, decoder);
  }

  private static ImportReport report(ImportKind<?> kind, long read, long imported, long ignored, long rejected,
      ErrorLog errors, boolean committed, Optional<String> failure, long started) {
    return new ImportReport(kind.name(), read, imported, ignored, rejected, errors.sorted(), errors.truncated(),
        committed, failure, Duration.ofNanos(System.nanoTime() - started));
  }

  private static void rollbackQuietly(Handle handle) {
    try {
      handle.rollback();
    } catch (RuntimeException ignored) {
      // The connection is broken; closing the handle discards the transaction anyway.
    }
  }

  static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) root = root.getCause();
    return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
  }

  /** The first row errors, and how many more there were. */
  private static final class ErrorLog {
    private final List<RowError> kept = new ArrayList<>();
    private long dropped;
    private long seen;

    void add(long line, String reason) {
      if (kept.size() < ImportLimits.MAX_REPORTED_ERRORS) kept.add(new RowError(line, reason));
      else dropped++;
    }

    void count(long more) {
      dropped += more;
    }

    void seen(long rows) {
      seen = rows;
    }

    long seen() {
      return seen;
    }

    boolean truncated() {
      return dropped > 0;
    }

    List<RowError> sorted() {
      var sorted = new ArrayList<>(kept);
      sorted.sort(Comparator.comparingLong(RowError::line));
      return sorted;
    }
  }
}
