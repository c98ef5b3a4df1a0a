package dev.tidings.imports;

import dev.tidings.InvalidInputException;
import dev.tidings.TidingsException;
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
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Streams a CSV or JSON Lines file (optionally gzip-compressed) into PostgreSQL. Rows are parsed and validated
 * one at a time on the calling thread and encoded as COPY text into chunks ({@link ImportOptions#chunkRows()}
 * rows); meanwhile a second thread writes each finished chunk into the real tables on its own connection, in
 * the one transaction that is committed at the end or rolled back (see {@link ChunkMerger}: a chunk of new rows
 * is COPYed straight into the table, any other chunk is staged, checked set-based and merged). So parsing (the
 * JVM) and writing (PostgreSQL) run at the same time instead of one after the other. Memory stays bounded
 * whatever the file size: at most {@value ChunkMerger#QUEUED} finished chunks wait besides the one being
 * written and the one being filled, and only the {@value ImportLimits#MAX_REPORTED_ERRORS} row errors with
 * the lowest lines are kept.
 *
 * <h2>What happens to bad rows</h2>
 * <ul>
 *   <li>{@link ImportMode#VALID_ROWS} (default): every valid row is imported and every invalid row is
 *       reported with its line (the line where its record starts) and the reason; none is dropped silently.
 *   <li>{@link ImportMode#ALL_OR_NOTHING}: one invalid row imports nothing; all invalid rows are still reported.
 *   <li>In both modes a malformed file (empty, no header, an unknown or missing required column in the
 *       header, broken CSV quoting, text that is not UTF-8, a value, line or XML part past {@link
 *       ImportLimits}, a gzip layer that is broken or expands like a compression bomb) imports nothing
 *       and the report says why
 *       ({@link ImportReport#failure()}); an I/O or database failure imports nothing and throws
 *       {@link ImportFailedException}. Either way the transaction is rolled back.
 *   <li>Rows that are valid alone but not against the database (a follow of an unknown subscriber, an
 *       email that belongs to another subscriber) are found set-based per chunk and count as invalid. Earlier
 *       chunks are already merged (in the import's transaction) when a chunk is checked, so "earlier in the
 *       file" is checked against the real tables.
 *   <li>Several rows with the same key in one file: the last valid one wins (within a chunk the merge picks
 *       the last; across chunks a later chunk's merge overwrites an earlier one's).
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
    return run(kind, file, Format.of(file), options);
  }

  /** Imports a file in a format the caller found (e.g. by {@link Format#detect(Path)}). */
  public <T> ImportReport run(ImportKind<T> kind, Path file, Format format, ImportOptions options) {
    try (InputStream in = Files.newInputStream(file)) {
      return run(kind, in, format, options);
    } catch (IOException e) {
      throw new ImportFailedException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  /** Imports from a stream (e.g. a request body); gzip-compressed content is recognised by itself. */
  public <T> ImportReport run(
      ImportKind<T> kind, InputStream in, Format format, ImportOptions options) {
    long started = System.nanoTime();
    var errors = new ErrorLog();
    var counts = new Counts();
    Instant now = clock.instant();
    try (Handle mergeHandle = jdbi.open()) {
      mergeHandle.begin();
      var merger = new ChunkMerger<>(kind.staging(), mergeHandle, now, errors);
      var running = new FutureTask<>(merger);
      try {
        mergeHandle.execute("SET LOCAL work_mem = '64MB'");
        // Each chunk's statements are planned anew;
        // JIT-compiling them costs more than the small chunks gain.
        mergeHandle.execute("SET LOCAL jit = off");
        if (!options.news()) mergeHandle.execute("SET LOCAL tidings.news = 'off'");
        Thread.ofPlatform().name("import-merge-" + kind.name()).daemon().start(running);
        var encoder = new ChunkEncoder<>(kind.staging(), now, options.chunkRows());
        parse(kind, in, format, options, encoder, merger, running, errors, counts);
        long parsed = System.nanoTime();
        merger.finish(running);
        ChunkMerger.Totals totals = running.get();
        long merged = System.nanoTime();
        long rejected = counts.rejected + totals.refused();
        if (options.mode() == ImportMode.ALL_OR_NOTHING && rejected > 0) {
          mergeHandle.rollback();
          return report(
              kind, counts.read, 0, 0, rejected, errors, false, Optional.empty(), started);
        }
        kind.staging().complete(mergeHandle, now);
        mergeHandle.commit();
        LOG.debug(
            "import of {}: parse {} ms; database busy {} ms, idle {} ms ({} chunks direct, {} checked); after"
                + " parsing {} ms, commit {} ms",
            kind.name(),
            (parsed - started) / 1_000_000,
            totals.busyNanos() / 1_000_000,
            totals.idleNanos() / 1_000_000,
            totals.directChunks(),
            totals.checkedChunks(),
            (merged - parsed) / 1_000_000,
            (System.nanoTime() - merged) / 1_000_000);
        long imported = counts.valid - totals.refused() - totals.ignored();
        return report(
            kind,
            counts.read,
            imported,
            totals.ignored(),
            rejected,
            errors,
            true,
            Optional.empty(),
            started);
      } catch (MalformedFileException e) {
        stop(merger, running, mergeHandle);
        errors.add(e.line(), e.reason());
        return report(kind, counts.read, 0, 0, 0, errors, false, Optional.of(e.reason()), started);
      } catch (ExecutionException e) {
        stop(merger, running, mergeHandle);
        throw failure(kind, e.getCause() == null ? e : e.getCause());
      } catch (IOException | RuntimeException e) {
        stop(merger, running, mergeHandle);
        throw failure(kind, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        stop(merger, running, mergeHandle);
        throw failure(kind, e);
      }
    }
  }

  private static RuntimeException failure(ImportKind<?> kind, Throwable e) {
    if (e instanceof InvalidInputException invalid) return invalid;
    return new ImportFailedException(
        "import of " + kind.name() + " failed, nothing was imported: "
            + TidingsException.rootMessage(e),
        e);
  }

  /** Stops the merger, waits until it no longer uses its connection, and rolls its transaction back. */
  private static void stop(ChunkMerger<?> merger, Future<?> running, Handle mergeHandle) {
    merger.abort();
    try {
      running.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | CancellationException e) {
      // expected: the merger stopped because of the abort or failed on its own;
      // the cause is reported already
    }
    rollbackQuietly(mergeHandle);
  }

  /** Rows read, valid (written to a chunk) and rejected while parsing. */
  private static final class Counts {
    long read;
    long valid;
    long rejected;
  }

  private <T> void parse(
      ImportKind<T> kind,
      InputStream in,
      Format format,
      ImportOptions options,
      ChunkEncoder<T> encoder,
      ChunkMerger<T> merger,
      Future<ChunkMerger.Totals> running,
      ErrorLog errors,
      Counts counts)
      throws IOException, InterruptedException, ExecutionException {
    RowMapper<T> mapper = kind.mapper();
    try (RowSource source = open(in, format, mapper.schema())) {
      var fields = new RowFields(mapper.schema());
      while (next(source, fields, counts.read)) {
        counts.read++;
        String problem = source.problem();
        if (problem == null) {
          try {
            T row = mapper.map(fields);
            Chunk full = encoder.write(row, source.line());
            counts.valid++;
            if (full != null) merger.hand(full, running);
          } catch (InvalidInputException e) {
            problem = String.join("; ", e.problems());
          }
        }
        if (problem != null) {
          counts.rejected++;
          errors.add(source.line(), problem);
        }
        if (counts.read % ImportLimits.PROGRESS_EVERY == 0) options.progress().accept(counts.read);
      }
      Chunk last = encoder.finish();
      if (last != null) merger.hand(last, running);
      options.progress().accept(counts.read);
    }
  }

  /**
   * Reads the next row; text that is not UTF-8, a broken gzip layer or a compression bomb makes the
   * file malformed (the row count says where; the line is the last the source reached, 1 before any).
   */
  static boolean next(RowSource source, RowFields fields, long read) throws IOException {
    try {
      return source.next(fields);
    } catch (CharacterCodingException e) {
      throw new MalformedFileException(
          source.line(), "the file is not valid UTF-8 (after data row " + read + ")");
    } catch (BrokenGzip e) {
      throw new MalformedFileException(
          Math.max(1, source.line()),
          "the gzip compression is broken (after data row " + read + "): " + e.getMessage());
    } catch (CompressionBomb e) {
      throw new MalformedFileException(
          Math.max(1, source.line()), e.getMessage() + " (after data row " + read + ")");
    }
  }

  static RowSource open(InputStream raw, Format format, RowSchema schema) throws IOException {
    try {
      InputStream decoded = decoded(raw);
      return switch (format) {
        case CSV -> new CsvRowSource(reader(decoded), schema);
        case JSON_LINES -> new JsonLinesRowSource(reader(decoded));
        case FEED_TSV -> new TsvFeedRowSource(reader(decoded), schema);
        // XML says its own encoding; the parser reads the bytes and skips a byte order mark itself
        case FEED_XML -> new XmlFeedRowSource(decoded, schema);
      };
    } catch (BrokenGzip e) {
      throw new MalformedFileException(
          1, "the content starts like gzip but is not valid gzip: " + e.getMessage());
    } catch (CompressionBomb e) {
      throw new MalformedFileException(1, e.getMessage() + " (in the header)");
    }
  }

  /**
   * The gzip layer of the content is broken: a bad header, corrupt or cut-short data ({@link
   * CheckedGunzip}). Unchecked, so
   * that it passes the readers and parsers between the stream and the row source unchanged (they wrap
   * or report an IOException as a problem of the text), and becomes a {@link MalformedFileException}
   * with the row it stopped at.
   */
  static final class BrokenGzip extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BrokenGzip(IOException cause) {
      super(
          cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage(),
          cause);
    }
  }

  /** The content, gunzipped when it starts with gzip's magic number. */
  private static InputStream decoded(InputStream raw) throws IOException {
    var in = new BufferedInputStream(raw, 64 * 1024);
    in.mark(2);
    int first = in.read();
    int second = in.read();
    in.reset();
    if (first == 0x1f && second == 0x8b)
      return new BufferedInputStream(CheckedGunzip.of(in), 64 * 1024);
    return in;
  }

  /** UTF-8 text of decoded content, a byte order mark dropped. */
  private static Reader reader(InputStream decoded) throws IOException {
    decoded.mark(3);
    byte[] bom = decoded.readNBytes(3);
    if (!(bom.length == 3
        && (bom[0] & 0xFF) == 0xEF
        && (bom[1] & 0xFF) == 0xBB
        && (bom[2] & 0xFF) == 0xBF)) decoded.reset();
    var decoder = StandardCharsets.UTF_8
        .newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    return new InputStreamReader(decoded, decoder);
  }

  private static ImportReport report(
      ImportKind<?> kind,
      long read,
      long imported,
      long ignored,
      long rejected,
      ErrorLog errors,
      boolean committed,
      Optional<String> failure,
      long started) {
    return new ImportReport(
        kind.name(),
        read,
        imported,
        ignored,
        rejected,
        errors.sorted(),
        errors.truncated(),
        committed,
        failure,
        Duration.ofNanos(System.nanoTime() - started));
  }

  private static void rollbackQuietly(Handle handle) {
    try {
      handle.rollback();
    } catch (RuntimeException ignored) {
      // The connection is broken; closing the handle discards the transaction anyway.
    }
  }
}
